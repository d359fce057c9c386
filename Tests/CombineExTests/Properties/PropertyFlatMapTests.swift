import CombineEx
import CombineExTesting
import Testing

/// A model object that exposes a property: what flatMap usually follows.
private final class Room {
  let topic: ProbedProperty<String>
  init(_ topic: String) { self.topic = ProbedProperty(topic) }
}

@Suite("Property flatMap")
struct PropertyFlatMapTests {
  @Test("flatMap's value is the value of the property for the current value")
  func valueFollowsInner() {
    let lobby = Room("welcome")
    let kitchen = Room("lunch")
    let current = MutableProperty(lobby)
    let topic = current.flatMap { $0.topic }
    #expect(topic.value == "welcome")
    current.value = kitchen
    #expect(topic.value == "lunch")
    kitchen.topic.source.value = "dinner"
    #expect(topic.value == "dinner")
  }

  @Test("flatMap delivers the inner value, its changes, and the new inner value on a switch")
  func deliversLatestInner() {
    let lobby = Room("welcome")
    let kitchen = Room("lunch")
    let current = MutableProperty(lobby)
    let recorder = current.flatMap { $0.topic }.record()
    lobby.topic.source.value = "hello"
    current.value = kitchen
    kitchen.topic.source.value = "dinner"
    #expect(recorder.values == ["welcome", "hello", "lunch", "dinner"])
  }

  @Test("after a switch, the previous inner property is ignored and its subscription cancelled")
  func previousInnerCancelled() {
    let lobby = Room("welcome")
    let kitchen = Room("lunch")
    let current = MutableProperty(lobby)
    let recorder = current.flatMap { $0.topic }.record()
    current.value = kitchen
    lobby.topic.source.value = "ignored"
    #expect(recorder.values == ["welcome", "lunch"])
    #expect(lobby.topic.probe.cancels == 1)
  }

  @Test("cancelling a flatMap subscription reaches the outer and the inner property")
  func cancelReachesBoth() {
    let lobby = Room("welcome")
    let current = ProbedProperty(lobby)
    let recorder = current.flatMap { $0.topic }.record()
    recorder.cancel()
    lobby.topic.source.value = "late"
    #expect(recorder.values == ["welcome"])
    #expect(current.probe.cancels == 1)
    #expect(lobby.topic.probe.cancels == 1)
  }

  @Test("a flatMap of constants delivers the inner value and finishes")
  func constantsFinish() {
    let recorder = Property(value: 2).flatMap { Property(value: $0 * 5) }.record()
    #expect(recorder.events == [.subscription, .value(10), .completion(.finished)])
  }

  @Test("a flatMap subscriber with limited demand receives the latest value when it asks")
  func limitedDemand() {
    let lobby = Room("a")
    let current = MutableProperty(lobby)
    let recorder = current.flatMap { $0.topic }.record(initialDemand: .max(1))
    lobby.topic.source.value = "b"
    lobby.topic.source.value = "c"
    recorder.request(.max(1))
    #expect(recorder.values == ["a", "c"])
  }

  @Test("flatMap, the outer and the inner properties are freed once their users are gone")
  func freed() {
    weak var weakOuter: MutableProperty<Room>?
    weak var weakRoom: Room?
    weak var weakTopic: Property<String>?
    do {
      let room = Room("welcome")
      weakRoom = room
      let outer = MutableProperty(room)
      weakOuter = outer
      let topic = outer.flatMap { $0.topic }
      weakTopic = topic
      let recorder = topic.record()
      room.topic.source.value = "bye"
      #expect(recorder.values == ["welcome", "bye"])
      recorder.cancel()
    }
    #expect(weakTopic == nil)
    #expect(weakOuter == nil)
    #expect(weakRoom == nil)
  }

  @Test("switching the outer property from inside a flatMap subscriber is delivered after")
  func reentrantSwitch() {
    let lobby = Room("welcome")
    let kitchen = Room("lunch")
    let current = MutableProperty(lobby)
    var seen: [String] = []
    let cancellable = current.flatMap { $0.topic }.sink { topic in
      seen.append(topic)
      if topic == "go" {
        current.value = kitchen
        seen.append("switched")
      }
    }
    lobby.topic.source.value = "go"
    #expect(seen == ["welcome", "go", "switched", "lunch"])
    withExtendedLifetime(cancellable) {}
  }
}
