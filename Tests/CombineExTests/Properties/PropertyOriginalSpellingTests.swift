import CombineEx
import CombineExTesting
import Testing

/// The original CombineEx's spellings of property APIs: `Property.just`, `eraseToProperty`,
/// `map(value:)`, the unlabelled and static `combineLatest`, and `flatMap` to an existential.
@Suite("Property: the original CombineEx's spellings")
struct PropertyOriginalSpellingTests {
  @Test("Property.just is a constant: the value, then finished")
  func just() {
    let title: Property<String> = .just("Inbox")
    #expect(title.value == "Inbox")
    #expect(title.record().events == [.subscription, .value("Inbox"), .completion(.finished)])
    #expect(type(of: Property.just(1)) == Property<Int>.self)
  }

  @Test("eraseToProperty is a read-only view that follows the source")
  func eraseToProperty() {
    let source = MutableProperty(1)
    let erased = source.eraseToProperty()
    let recorder = erased.record()
    source.value = 2
    #expect(erased.value == 2)
    #expect(recorder.values == [1, 2])
  }

  @Test("eraseToProperty does not keep the source alive beyond its use")
  func eraseToPropertyReleases() {
    weak var weakSource: MutableProperty<Int>?
    do {
      let source = MutableProperty(1)
      weakSource = source
      let erased = source.eraseToProperty()
      #expect(erased.value == 1)
    }
    #expect(weakSource == nil)
  }

  @Test("map(value:) is a constant that ignores later changes, as in the original")
  func mapValueIsConstant() {
    let name = MutableProperty("Ada")
    let placeholder = name.map(value: "unknown")
    let recorder = placeholder.record()
    name.value = "Grace"
    #expect(placeholder.value == "unknown")
    #expect(recorder.events == [.subscription, .value("unknown"), .completion(.finished)])
  }

  @Test("map(value:) is disfavoured: a closure map still picks the closure form")
  func mapValueIsDisfavoured() {
    let count = MutableProperty(2)
    let label = count.map { "\($0)" }
    count.value = 3
    #expect(label.value == "3")
  }

  @Test("the unlabelled combineLatest returns a Property of tuples, 1 to 9 others")
  func unlabelledCombineLatest() {
    let a = MutableProperty(1)
    let pair: Property<(Int, String)> = a.combineLatest(MutableProperty("b"))
    let recorder = pair.record()
    a.value = 2
    #expect(recorder.values.map { "\($0.0)\($0.1)" } == ["1b", "2b"])
    let p = { (value: Int) in Property(value: value) }
    let nine = a.combineLatest(p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8), p(9))
    #expect(nine.value.9 == 9 && nine.value.0 == 2)
    let three: Property<(Int, Int, Int)> = a.combineLatest(p(5), p(6))
    #expect(three.value == (2, 5, 6))
  }

  // `Property.combineLatest(a, b)` without `<String>` does not type-check in Swift 6.3: the
  // compiler cannot infer a generic type's parameter for a static method when an instance
  // method of the same name exists (Combine's `combineLatest(_:)`) and the type has a
  // conditional conformance (`Sendable where Output: Sendable`). See Docs/Migrating.md.
  @Test("static Property.combineLatest combines 2 to 10 properties")
  func staticCombineLatest() {
    let first = MutableProperty("Ada")
    let last = MutableProperty("Lovelace")
    let name = Property<String>.combineLatest(first, last)
    let recorder = name.map { "\($0) \($1)" }.record()
    last.value = "Byron"
    #expect(recorder.values == ["Ada Lovelace", "Ada Byron"])
    let p = { (value: Int) in Property(value: value) }
    #expect(Property<Int>.combineLatest(p(1), p(2), p(3)).value == (1, 2, 3))
    let ten = Property<Int>.combineLatest(
      p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8), p(9))
    #expect(ten.value.0 == 0 && ten.value.9 == 9)
    let mixed = Property<Int>.combineLatest(p(1), MutableProperty("x"))
    #expect(type(of: mixed) == Property<(Int, String)>.self)
    #expect(MutableProperty<Int>.combineLatest(p(3), p(4)).value == (3, 4))
  }

  // The original's statics take properties of any types, whatever type they are called on
  // (its own tests call `Property<Set<String>>.combineLatest` on a `[String]`, a `Bool` and a
  // `Set<String>`): the result is a property, not the publishers' `Publishers.Aggregate`.
  @Test("static combineLatest on any property type combines properties of other types")
  func staticCombineLatestOnAnyType() {
    let strings = Property<[String]>(value: ["a", "b"])
    let allowed = MutableProperty(true)
    let match = Property<Set<String>>(value: ["a"])
    let visible = Property<Set<String>>.combineLatest(strings, allowed, match)
      .map { strings, allowed, match in allowed ? Set(strings).intersection(match) : [] }
    #expect(visible.value == ["a"])
    allowed.value = false
    #expect(visible.value == [])
    let pair = Property<Bool>.combineLatest(strings, match)
    #expect(type(of: pair) == Property<([String], Set<String>)>.self)
  }

  @Test("flatMap to an existential property follows the latest inner property")
  func flatMapToExistential() {
    let useMetric = MutableProperty(true)
    let metres = MutableProperty(1.0)
    let feet = MutableProperty(3.3)
    let shown = useMetric.flatMap { metric -> any PropertyProtocol<Double> in
      metric ? metres : feet
    }
    let recorder = shown.record()
    useMetric.value = false
    metres.value = 2
    feet.value = 6.6
    #expect(recorder.values == [1.0, 3.3, 6.6])
    #expect(shown.value == 6.6)
  }

  @Test("flatMap with a key path to a MutableProperty follows the inner property")
  func flatMapKeyPath() {
    struct Holder { let inner: MutableProperty<Int> }
    let first = MutableProperty(1)
    let second = MutableProperty(10)
    let outer = MutableProperty(Holder(inner: first))
    let flattened: Property<Int> = outer.flatMap(\.inner)
    let recorder = flattened.record()
    first.value = 2
    outer.value = Holder(inner: second)
    second.value = 20
    #expect(recorder.values == [1, 2, 10, 20])
  }
}
