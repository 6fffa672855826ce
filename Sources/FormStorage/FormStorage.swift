// FormStorage: the SQLite layer, migrations, the record, draft and settings
// stores, and table introspection. See the folders beside this file.
