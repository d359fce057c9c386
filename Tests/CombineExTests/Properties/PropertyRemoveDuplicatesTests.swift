import CombineEx
import CombineExTesting
import Testing

@Suite("Property removeDuplicates")
struct PropertyRemoveDuplicatesTests {
  @Test("removeDuplicates delivers the current value, then only values that changed")
  func dropsRepeats() {
    let source = MutableProperty("a")
    let distinct = source.removeDuplicates()
    let recorder = distinct.record()
    source.value = "a"
    source.value = "b"
    source.value = "b"
    source.value = "a"
    #expect(recorder.values == ["a", "b", "a"])
    #expect(distinct.value == "a")
  }

  @Test("removeDuplicates is eager: it subscribes once and every subscriber shares its sequence")
  func eagerShared() {
    let source = ProbedProperty(1)
    let distinct = source.removeDuplicates()
    #expect(source.probe.subscriptions == 1)
    let first = distinct.record()
    source.source.value = 2
    let second = distinct.record()
    source.source.value = 2
    source.source.value = 3
    #expect(source.probe.subscriptions == 1)
    #expect(first.values == [1, 2, 3])
    #expect(second.values == [2, 3])
  }

  @Test("removeDuplicates keeps the first of equal values: its value is the one published")
  func keepsFirstOfEqualValues() {
    final class Item: Equatable {
      let id: Int
      init(_ id: Int) { self.id = id }
      static func == (lhs: Item, rhs: Item) -> Bool { lhs.id == rhs.id }
    }
    let original = Item(1)
    let source = MutableProperty(original)
    let distinct = source.removeDuplicates()
    let recorder = distinct.record()
    source.value = Item(1)  // equal, another instance: a duplicate
    #expect(distinct.value === original)
    #expect(recorder.values.count == 1)
  }

  @Test("removeDuplicates(by:) subscribes to its source once, at once")
  func byIsEager() {
    let source = ProbedProperty(1)
    let distinct = source.removeDuplicates { $0 == $1 }
    #expect(source.probe.subscriptions == 1)
    let first = distinct.record()
    let second = distinct.record()
    source.source.value = 1
    source.source.value = 2
    #expect(source.probe.subscriptions == 1)
    #expect(first.values == [1, 2])
    #expect(second.values == [1, 2])
  }

  @Test("removeDuplicates(by:)'s value is the last value published, not the source's")
  func byValueIsLastPublished() {
    let temperature = MutableProperty(20.0)
    let display = temperature.removeDuplicates { abs($0 - $1) < 0.5 }
    let recorder = display.record()
    temperature.value = 20.3
    temperature.value = 20.6
    #expect(display.value == 20.0)
    temperature.value = 21.2
    #expect(display.value == 21.2)
    #expect(recorder.values == [20.0, 21.2])
  }

  @Test("removeDuplicates(by:) compares each value with the one received just before it")
  func byComparesWithPreviousReceived() {
    let source = MutableProperty(0)
    let display = source.removeDuplicates { abs($0 - $1) < 5 }
    let recorder = display.record()
    source.value = 3
    source.value = 7
    source.value = 13
    #expect(recorder.values == [0, 13])
  }

  @Test("a late subscriber to removeDuplicates(by:) receives the last value published")
  func byLateSubscriber() {
    let source = MutableProperty(0)
    let display = source.removeDuplicates { abs($0 - $1) < 5 }
    source.value = 3
    source.value = 9
    source.value = 10
    let late = display.record()
    #expect(late.values == [9])
  }

  @Test("removeDuplicates(by:) keeps following while a subscriber lives, then lets go")
  func byLifetime() {
    let source = ProbedProperty(0)
    weak var weakDisplay: Property<Int>?
    var display: Property<Int>? = source.removeDuplicates(by: ==)
    weakDisplay = display
    let recorder = display?.record()
    display = nil
    #expect(weakDisplay == nil)
    source.source.value = 1
    #expect(recorder?.values == [0, 1])
    #expect(source.probe.cancels == 0)
    recorder?.cancel()
    #expect(source.probe.cancels == 1)
  }

  @Test("dropping an unobserved removeDuplicates(by:) cancels its subscription to the source")
  func byDroppedCancels() {
    let source = ProbedProperty(0)
    var display: Property<Int>? = source.removeDuplicates(by: ==)
    #expect(display?.value == 0)
    display = nil
    #expect(source.probe.cancels == 1)
  }

  @Test("cancelling a removeDuplicates subscription reaches the source")
  func cancelReachesSource() {
    let source = ProbedProperty(0)
    let recorder = source.removeDuplicates().record()
    recorder.cancel()
    source.source.value = 1
    #expect(recorder.values == [0])
    #expect(source.probe.cancels == 1)
  }

  @Test("removeDuplicates of a constant delivers the value, then finishes")
  func constantFinishes() {
    let recorder = Property(value: 1).removeDuplicates().record()
    #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
    let byRecorder = Property(value: 1).removeDuplicates(by: ==).record()
    #expect(byRecorder.events == [.subscription, .value(1), .completion(.finished)])
  }

  @Test("a removeDuplicates(by:) subscriber with limited demand gets the latest when it asks")
  func byLimitedDemand() {
    let source = MutableProperty(0)
    let recorder = source.removeDuplicates(by: ==).record(initialDemand: .max(1))
    source.value = 1
    source.value = 2
    recorder.request(.max(1))
    #expect(recorder.values == [0, 2])
  }
}
