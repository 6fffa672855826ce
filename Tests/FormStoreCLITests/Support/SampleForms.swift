import FormCore

/// A small people form with one field of each interesting kind.
func peopleForm() -> Form {
    var id = Field(key: "id", label: "ID", kind: .integer)
    id.isReadOnly = true
    var name = Field(key: "name", label: "Name", kind: .text)
    name.isRequired = true
    name.rules = [.maxLength(40)]
    var colour = Field(key: "colour", label: "Favourite colour", kind: .choice)
    colour.choices = [Choice("red", label: "Red"), Choice("green", label: "Green"), Choice("blue", label: "Blue")]
    var born = Field(key: "born", label: "Born", kind: .date)
    born.format = "yyyy-MM-dd"
    var notes = Field(key: "notes", label: "Notes", kind: .multiline)
    notes.hint = "Anything else"
    let password = Field(key: "password", label: "Password", kind: .password)
    var form = Form(name: "people", title: "People", sections: [
        Section(fields: [id, name, colour, born, notes, password]),
    ])
    form.primaryKey = ["id"]
    return form
}
