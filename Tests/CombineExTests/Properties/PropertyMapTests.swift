import CombineEx
import CombineExTesting
import Testing

@Suite("Property map")
struct PropertyMapTests {
  @Test("map's value is the transform of the source's current value")
  func valueFollowsSource() {
    let source = MutableProperty(2)
    let doubled = source.map { $0 * 2 }
    #expect(doubled.value == 4)
    source.value = 5
    #expect(doubled.value == 10)
  }

  @Test("subscribing to map delivers the transformed current value, then every change")
  func deliversCurrentThenChanges() {
    let source = MutableProperty(1)
    let recorder = source.map { "#\($0)" }.record()
    source.value = 2
    source.value = 2
    #expect(recorder.values == ["#1", "#2", "#2"])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("map with a key path reads the key path of the value")
  func keyPath() {
    struct Player {
      var name: String
      var score: Int
    }
    let player = MutableProperty(Player(name: "Ada", score: 0))
    let score = player.map(\.score)
    let recorder = score.record()
    player.modify { $0.score += 10 }
    #expect(score.value == 10)
    #expect(recorder.values == [0, 10])
  }

  @Test("map is eager: the transform runs once at creation and once per change, never per read")
  func eagerTransform() {
    let source = MutableProperty(1)
    let calls = Box(0)
    let mapped = source.map { value -> Int in
      calls.value += 1
      return value
    }
    #expect(calls.value == 1)
    source.value = 2
    #expect(calls.value == 2)
    #expect(mapped.value == 2)
    #expect(mapped.value == 2)
    let first = mapped.record()
    let second = mapped.record()
    #expect(calls.value == 2)
    source.value = 3
    #expect(calls.value == 3)
    #expect(first.values == [2, 3] && second.values == [2, 3])
  }

  @Test("a map that makes objects gives every reader and subscriber the same instance")
  func sameInstanceForEveryone() {
    let source = MutableProperty("a")
    let boxes = source.map { Box($0) }
    let recorder = boxes.record()
    #expect(boxes.value === boxes.value)
    #expect(recorder.values.last === boxes.value)
    source.value = "b"
    #expect(boxes.value.value == "b")
    #expect(recorder.values.last === boxes.value)
  }

  @Test("map keeps its source alive; the source does not keep the map alive")
  func keepsSourceAlive() {
    weak var weakSource: MutableProperty<Int>?
    weak var weakMapped: Property<Int>?
    var mapped: Property<Int>?
    do {
      let source = MutableProperty(1)
      weakSource = source
      mapped = source.map { $0 + 1 }
      weakMapped = mapped
    }
    #expect(weakSource != nil)
    #expect(mapped?.value == 2)
    mapped = nil
    #expect(weakMapped == nil)
    #expect(weakSource == nil)
  }

  @Test("dropping an unobserved map cancels its subscription to the source")
  func droppingCancels() {
    let source = ProbedProperty(1)
    var mapped: Property<Int>? = source.map { $0 * 2 }
    #expect(source.probe.subscriptions == 1)
    #expect(mapped?.value == 2)
    mapped = nil
    #expect(source.probe.cancels == 1)
  }

  @Test("maps compose: a map of a map is a Property")
  func mapsCompose() {
    let source = MutableProperty(3)
    let text = source.map { $0 + 1 }.map { "\($0)" }
    let recorder = text.record()
    source.value = 9
    #expect(text.value == "10")
    #expect(recorder.values == ["4", "10"])
  }

  @Test("a map of a constant delivers the transformed value, then finishes")
  func constantFinishes() {
    let recorder = Property(value: 2).map { $0 * 3 }.record()
    #expect(recorder.events == [.subscription, .value(6), .completion(.finished)])
  }

  @Test("a subscriber with limited demand receives the latest value when it asks again")
  func limitedDemand() {
    let source = MutableProperty(0)
    let recorder = source.map { $0 * 10 }.record(initialDemand: .max(1))
    source.value = 1
    source.value = 2
    #expect(recorder.values == [0])
    recorder.request(.max(1))
    #expect(recorder.values == [0, 20])
  }

  @Test("cancelling a map subscription stops deliveries and reaches the source")
  func cancelReachesSource() {
    let source = ProbedProperty(1)
    let recorder = source.map { $0 }.record()
    recorder.cancel()
    source.source.value = 2
    #expect(recorder.values == [1])
    #expect(source.probe.cancels == 1)
  }

  @Test("a dropped map is freed at once; its subscribers keep receiving from the source")
  func droppedMapIsFreed() {
    let source = MutableProperty(1)
    weak var weakMapped: Property<Int>?
    var mapped: Property<Int>? = source.map { $0 * 2 }
    weakMapped = mapped
    let recorder = mapped?.record()
    mapped = nil
    #expect(weakMapped == nil)
    source.value = 2
    #expect(recorder?.values == [2, 4])
  }

  @Test("a map and its source are freed once their users are gone")
  func mapAndSourceFreed() {
    weak var weakSource: MutableProperty<Int>?
    weak var weakMapped: Property<Int>?
    do {
      let source = MutableProperty(1)
      weakSource = source
      let mapped = source.map { $0 + 1 }
      weakMapped = mapped
      let recorder = mapped.record()
      source.value = 2
      #expect(recorder.values == [2, 3])
      recorder.cancel()
    }
    #expect(weakMapped == nil)
    #expect(weakSource == nil)
  }

  @Test("a source set from inside a map subscriber is delivered after the current delivery")
  func reentrantSet() {
    let source = MutableProperty(1)
    let mapped = source.map { $0 * 10 }
    var seen: [Int] = []
    let cancellable = mapped.sink { value in
      seen.append(value)
      if value == 20 {
        source.value = 3
        seen.append(-1)
      }
    }
    source.value = 2
    #expect(seen == [10, 20, -1, 30])
    withExtendedLifetime(cancellable) {}
  }
}
