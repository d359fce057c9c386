import CombineEx
import CombineExTesting
import Testing

/// Pairs as strings, so that recorded tuples compare.
private func text<A, B>(_ pair: (A, B)) -> String { "\(pair.0)|\(pair.1)" }

@Suite("Property zip")
struct PropertyZipTests {
  @Test("zip starts with the pair of current values")
  func firstPair() {
    let a = MutableProperty(0)
    let b = MutableProperty("-")
    let zipped = a.zip(with: b)
    #expect(text(zipped.value) == "0|-")
    #expect(zipped.record().values.map(text) == ["0|-"])
  }

  @Test("zip pairs the n-th values: values wait for their partners")
  func pairsNthValues() {
    let requests = MutableProperty(0)
    let responses = MutableProperty("-")
    let zipped = requests.zip(with: responses)
    let recorder = zipped.record()
    requests.value = 1
    requests.value = 2
    #expect(recorder.values.map(text) == ["0|-"])
    responses.value = "one"
    responses.value = "two"
    #expect(recorder.values.map(text) == ["0|-", "1|one", "2|two"])
    #expect(text(zipped.value) == "2|two")
  }

  @Test("a zip(with:) result composes with map")
  func composesWithMap() {
    let question = MutableProperty("2 + 2?")
    let answer = MutableProperty("4")
    let cards = question.zip(with: answer).map { "\($0) \($1)" }
    let recorder = cards.record()
    question.value = "3 + 3?"
    answer.value = "6"
    #expect(cards.value == "3 + 3? 6")
    #expect(recorder.values == ["2 + 2? 4", "3 + 3? 6"])
  }

  @Test("zip's value is the last pair published, even while values wait")
  func valueIsLastPair() {
    let a = MutableProperty(0)
    let b = MutableProperty(0)
    let zipped = a.zip(with: b)
    a.value = 1
    #expect(text(zipped.value) == "0|0")
  }

  @Test("zip subscribes to its sources once, at once, and late subscribers get the last pair")
  func eager() {
    let a = ProbedProperty(0)
    let b = ProbedProperty(0)
    let zipped = a.zip(with: b)
    #expect(a.probe.subscriptions == 1)
    #expect(b.probe.subscriptions == 1)
    a.source.value = 1
    b.source.value = 1
    let late = zipped.record()
    a.source.value = 2
    b.source.value = 2
    #expect(late.values.map(text) == ["1|1", "2|2"])
    #expect(a.probe.subscriptions == 1)
  }

  @Test("zip of three properties of different types gives triples")
  func three() {
    let a = MutableProperty(1)
    let b = MutableProperty("b")
    let c = MutableProperty(true)
    let zipped = a.zip(with: b, c)
    let recorder = zipped.map { "\($0)\($1)\($2)" }.record()
    a.value = 2
    b.value = "c"
    c.value = false
    #expect(recorder.values == ["1btrue", "2cfalse"])
  }

  @Test("zip of ten properties gives ten-tuples")
  func ten() {
    let p = (0..<10).map { MutableProperty($0) }
    let zipped = p[0].zip(with: p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9])
    #expect(zipped.value.0 == 0 && zipped.value.9 == 9)
    for property in p { property.value += 10 }
    #expect(zipped.value.0 == 10 && zipped.value.9 == 19)
  }

  @Test("every zip arity from 4 to 9 pairs in order")
  func middleArities() {
    let p = (0..<9).map { MutableProperty($0) }
    let four = p[0].zip(with: p[1], p[2], p[3])
    let five = p[0].zip(with: p[1], p[2], p[3], p[4])
    let six = p[0].zip(with: p[1], p[2], p[3], p[4], p[5])
    let seven = p[0].zip(with: p[1], p[2], p[3], p[4], p[5], p[6])
    let eight = p[0].zip(with: p[1], p[2], p[3], p[4], p[5], p[6], p[7])
    let nine = p[0].zip(with: p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8])
    for property in p { property.value += 10 }
    #expect(four.value.0 == 10 && four.value.3 == 13)
    #expect(five.value.4 == 14)
    #expect(six.value.5 == 15)
    #expect(seven.value.6 == 16)
    #expect(eight.value.7 == 17)
    #expect(nine.value.8 == 18)
  }

  @Test("zip of an array of properties gives arrays in the array's order")
  func array() {
    let players = [MutableProperty("rock"), MutableProperty("paper")]
    let rounds = players.zip()
    let recorder = rounds.record()
    players[1].value = "scissors"
    players[0].value = "rock"
    #expect(recorder.values == [["rock", "paper"], ["rock", "scissors"]])
  }

  @Test("zip of an empty array is a constant empty array")
  func emptyArray() {
    let none: [MutableProperty<Int>] = []
    let zipped = none.zip()
    #expect(zipped.value == [])
    #expect(zipped.record().events == [.subscription, .value([]), .completion(.finished)])
  }

  @Test("zip finishes once a finished source has nothing left to pair, cancelling the others")
  func finishesWithConstant() {
    let mutable = ProbedProperty(1)
    let zipped = Property(value: "c").zip(with: mutable)
    let recorder = zipped.map(text).record()
    #expect(recorder.events == [.subscription, .value("c|1"), .completion(.finished)])
    #expect(mutable.probe.cancels == 1)
    #expect(text(zipped.value) == "c|1")
  }

  @Test("a source set from inside a zip subscriber is paired after the current delivery")
  func reentrantSet() {
    let a = MutableProperty(0)
    let b = MutableProperty(0)
    let zipped = [a, b].zip()
    var seen: [[Int]] = []
    let cancellable = zipped.sink { values in
      seen.append(values)
      if values == [1, 1] {
        a.value = 2
        b.value = 2
        seen.append([-1])
      }
    }
    a.value = 1
    b.value = 1
    #expect(seen == [[0, 0], [1, 1], [-1], [2, 2]])
    withExtendedLifetime(cancellable) {}
  }

  @Test("a zip subscriber keeps it following; cancelling the last one lets the sources go")
  func lifetime() {
    let a = ProbedProperty(0)
    let b = ProbedProperty(0)
    weak var weakZipped: Property<[Int]>?
    var zipped: Property<[Int]>? = [Property(a), Property(b)].zip()
    weakZipped = zipped
    let recorder = zipped?.record()
    zipped = nil
    #expect(weakZipped == nil)
    a.source.value = 1
    b.source.value = 1
    #expect(recorder?.values == [[0, 0], [1, 1]])
    recorder?.cancel()
    #expect(a.probe.cancels == 1)
    #expect(b.probe.cancels == 1)
  }

  @Test("zip and its sources are freed once their users are gone")
  func freed() {
    weak var weakA: MutableProperty<Int>?
    weak var weakB: MutableProperty<Int>?
    weak var weakZipped: Property<(Int, Int)>?
    do {
      let a = MutableProperty(0)
      let b = MutableProperty(0)
      weakA = a
      weakB = b
      let zipped = a.zip(with: b)
      weakZipped = zipped
      let recorder = zipped.record()
      a.value = 1
      b.value = 1
      #expect(recorder.values.map(text) == ["0|0", "1|1"])
      recorder.cancel()
    }
    #expect(weakZipped == nil)
    #expect(weakA == nil)
    #expect(weakB == nil)
  }

  @Test("a zip subscriber with limited demand receives the latest pair when it asks again")
  func limitedDemand() {
    let a = MutableProperty(0)
    let b = MutableProperty(0)
    let recorder = [a, b].zip().record(initialDemand: .max(1))
    a.value = 1
    b.value = 1
    a.value = 2
    b.value = 2
    #expect(recorder.values == [[0, 0]])
    recorder.request(.max(1))
    #expect(recorder.values == [[0, 0], [2, 2]])
  }
}
