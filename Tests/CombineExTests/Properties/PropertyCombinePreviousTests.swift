import CombineEx
import CombineExTesting
import Testing

/// Pairs as strings, so that recorded tuples compare.
private func text(_ pair: (Int, Int)) -> String { "\(pair.0)->\(pair.1)" }

@Suite("Property combinePrevious")
struct PropertyCombinePreviousTests {
  @Test("combinePrevious starts with (initial, value)")
  func firstPair() {
    let source = MutableProperty(1)
    let moves = source.combinePrevious(0)
    #expect(text(moves.value) == "0->1")
    #expect(moves.record().values.map(text) == ["0->1"])
  }

  @Test("combinePrevious pairs every value with the one before it")
  func pairsEachChange() {
    let source = MutableProperty(1)
    let moves = source.combinePrevious(0)
    let recorder = moves.record()
    source.value = 2
    source.value = 5
    #expect(recorder.values.map(text) == ["0->1", "1->2", "2->5"])
    #expect(text(moves.value) == "2->5")
  }

  @Test("a late subscriber to combinePrevious receives the latest pair, not the initial one")
  func lateSubscriber() {
    let source = MutableProperty(1)
    let moves = source.combinePrevious(0)
    source.value = 2
    source.value = 3
    let late = moves.record()
    source.value = 4
    #expect(late.values.map(text) == ["2->3", "3->4"])
  }

  @Test("combinePrevious subscribes to its source once, at once")
  func subscribesOnce() {
    let source = ProbedProperty(1)
    let moves = source.combinePrevious(0)
    #expect(source.probe.subscriptions == 1)
    _ = moves.record()
    _ = moves.record()
    #expect(source.probe.subscriptions == 1)
  }

  @Test("a source set from inside a combinePrevious subscriber is paired in order")
  func reentrantSet() {
    let source = MutableProperty(1)
    let moves = source.combinePrevious(0)
    var seen: [String] = []
    let cancellable = moves.sink { pair in
      seen.append(text(pair))
      if pair.1 == 2 { source.value = 3 }
    }
    let other = moves.record()
    source.value = 2
    #expect(seen == ["0->1", "1->2", "2->3"])
    #expect(other.values.map(text) == ["0->1", "1->2", "2->3"])
    withExtendedLifetime(cancellable) {}
  }

  @Test("a subscriber with limited demand receives the latest pair when it asks again")
  func limitedDemand() {
    let source = MutableProperty(1)
    let recorder = source.combinePrevious(0).record(initialDemand: .max(1))
    source.value = 2
    source.value = 3
    recorder.request(.max(1))
    #expect(recorder.values.map(text) == ["0->1", "2->3"])
  }

  @Test("a combinePrevious subscriber keeps it following; cancelling lets the source go")
  func lifetime() {
    let source = ProbedProperty(1)
    weak var weakMoves: Property<(Int, Int)>?
    var moves: Property<(Int, Int)>? = source.combinePrevious(0)
    weakMoves = moves
    let recorder = moves?.record()
    moves = nil
    #expect(weakMoves == nil)
    source.source.value = 2
    #expect(recorder?.values.map(text) == ["0->1", "1->2"])
    recorder?.cancel()
    #expect(source.probe.cancels == 1)
  }

  @Test("combinePrevious and its source are freed once their users are gone")
  func freed() {
    weak var weakSource: MutableProperty<Int>?
    weak var weakMoves: Property<(Int, Int)>?
    do {
      let source = MutableProperty(1)
      weakSource = source
      let moves = source.combinePrevious(0)
      weakMoves = moves
      let recorder = moves.record()
      source.value = 2
      recorder.cancel()
    }
    #expect(weakMoves == nil)
    #expect(weakSource == nil)
  }

  @Test("combinePrevious of a constant delivers its pair, then finishes")
  func constantFinishes() {
    let moves = Property(value: 1).combinePrevious(0)
    #expect(text(moves.value) == "0->1")
    let recorder = moves.map(text).record()
    #expect(recorder.events == [.subscription, .value("0->1"), .completion(.finished)])
  }
}
