import FormCore
import Testing

/// What is kept per form is found again for an equal form only: another
/// version, table or field under the same name is kept apart, the oldest of
/// one name goes first, and past its limit of names the cache starts again.
@Suite struct FormCacheTests {
    func form(_ name: String = "contact", version: Int = 1, table: String? = nil, keys: [String] = ["name"]) -> Form {
        var form = Form(name: name, sections: [Section(fields: keys.map { Field(key: $0, label: $0) })])
        form.version = version
        form.table = table
        return form
    }

    @Test func anEqualFormFindsWhatWasKept() {
        let cache = FormCache<String>()
        cache.keep("first", for: form())
        #expect(cache.value(for: form()) == "first")
        #expect(cache.value(for: form("other")) == nil)
    }

    @Test func theFormAskedForLastIsFoundAgainAfterAnother() {
        let cache = FormCache<String>()
        cache.keep("contact", for: form())
        cache.keep("other", for: form("other"))
        #expect(cache.value(for: form()) == "contact")
        #expect(cache.value(for: form()) == "contact")
        #expect(cache.value(for: form("other")) == "other")
        #expect(cache.value(for: form(version: 2)) == nil)
        #expect(cache.value(for: form("other")) == "other")
    }

    @Test func anEqualFormBuiltAgainFindsTheSameValueEachTime() {
        let cache = FormCache<String>()
        let kept = form()
        cache.keep("first", for: kept)
        let rebuilt = form()
        #expect(cache.value(for: rebuilt) == "first")
        #expect(cache.value(for: rebuilt) == "first")
        #expect(cache.value(for: kept) == "first")
        #expect(cache.value(for: form(version: 2)) == nil)
        #expect(cache.value(for: rebuilt) == "first")
    }

    @Test func formsSharingANameAreKeptApart() {
        let cache = FormCache<String>()
        cache.keep("v1", for: form())
        cache.keep("v2", for: form(version: 2))
        cache.keep("table", for: form(table: "people"))
        cache.keep("wider", for: form(keys: ["name", "email"]))
        #expect(cache.value(for: form()) == "v1")
        #expect(cache.value(for: form(version: 2)) == "v2")
        #expect(cache.value(for: form(table: "people")) == "table")
        #expect(cache.value(for: form(keys: ["name", "email"])) == "wider")
    }

    @Test func keepingAnEqualFormAgainReplacesIt() {
        let cache = FormCache<String>(perName: 2)
        cache.keep("old", for: form())
        cache.keep("other", for: form(version: 2))
        cache.keep("new", for: form())
        #expect(cache.value(for: form()) == "new")
        #expect(cache.value(for: form(version: 2)) == "other")
    }

    @Test func theOldestOfOneNameGoesFirst() {
        let cache = FormCache<Int>(perName: 2)
        for version in 1...3 { cache.keep(version, for: form(version: version)) }
        #expect(cache.value(for: form(version: 1)) == nil)
        #expect(cache.value(for: form(version: 2)) == 2)
        #expect(cache.value(for: form(version: 3)) == 3)
    }

    @Test func pastItsLimitOfNamesTheCacheStartsAgain() {
        let cache = FormCache<Int>(limit: 2)
        cache.keep(1, for: form("a"))
        cache.keep(2, for: form("b"))
        cache.keep(22, for: form("b", version: 2))
        #expect(cache.value(for: form("a")) == 1)
        cache.keep(3, for: form("c"))
        #expect(cache.value(for: form("a")) == nil)
        #expect(cache.value(for: form("b")) == nil)
        #expect(cache.value(for: form("c")) == 3)
    }
}
