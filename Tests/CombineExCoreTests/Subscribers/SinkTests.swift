import CombineExCore
import Testing

@Suite("Subscribers.Sink")
struct SinkTests {
  @Test("a sink requests unlimited values and calls its closures in order")
  func deliversValuesThenCompletion() {
    let subject = PassthroughSubject<Int, Never>()
    var events: [String] = []
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { events.append("\($0)") }, receiveValue: { events.append("\($0)") })
    subject.subscribe(sink)
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    subject.send(3)
    #expect(events == ["1", "2", "finished"])
  }

  @Test("after completion the closures are released and the getters return no-ops")
  func completionReleasesClosures() {
    weak var weakOwner: TestOwner?
    let sink: Subscribers.Sink<Int, Never>
    do {
      let owner = TestOwner()
      weakOwner = owner
      sink = Subscribers.Sink(
        receiveCompletion: { _ in owner.values.append(-1) },
        receiveValue: { owner.values.append($0) })
      Just(5).subscribe(sink)
      #expect(owner.values == [5, -1])
    }
    #expect(weakOwner == nil)
    sink.receiveValue(6)  // the no-op that replaced the released closure
    sink.receiveCompletion(.finished)
  }

  @Test("a completion sent from inside receiveValue keeps the running closure's captures alive")
  func completionFromInsideReceiveValue() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    var completions = 0
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.sink(
        receiveCompletion: { _ in completions += 1 },
        receiveValue: { value in
          owner.values.append(value)
          subject.send(completion: .finished)
          // The closure still runs: what it captured must still be there.
          owner.values.append(value * 10)
        })
    }
    subject.send(1)
    #expect(completions == 1)
    #expect(weakOwner == nil)
    withExtendedLifetime(cancellable) {}
  }

  @Test(
    "nested re-entrant sends are delivered, and a completion inside them waits for the outermost")
  func nestedSendsThenCompletion() {
    let subject = PassthroughSubject<Int, Never>()
    let log = LockedBox<[Int]>([])
    weak var weakOwner: TestOwner?
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.sink { value in
        log.withLock { $0.append(value) }
        if value < 3 { subject.send(value + 1) }
        if value == 3 { subject.send(completion: .finished) }
        owner.values.append(value)
        log.withLock { $0.append(-value) }
      }
    }
    subject.send(1)
    #expect(log.withLock { $0 } == [1, 2, 3, -3, -2, -1])
    #expect(weakOwner == nil)
    withExtendedLifetime(cancellable) {}
  }

  @Test(
    "cancel stops values, and a second cancel does nothing")
  func cancelStopsValues() {
    let subject = PassthroughSubject<Int, Never>()
    var values: [Int] = []
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { _ in }, receiveValue: { values.append($0) })
    subject.subscribe(sink)
    subject.send(1)
    sink.cancel()
    sink.cancel()
    subject.send(2)
    subject.send(completion: .finished)
    #expect(values == [1])
  }

  @Test("a sink freed after cancel frees what its closures captured")
  func cancelledSinkFreesCaptures() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    do {
      let owner = TestOwner()
      weakOwner = owner
      let cancellable = subject.sink { owner.values.append($0) }
      subject.send(1)
      cancellable.cancel()
    }
    #expect(weakOwner == nil)
  }

  @Test("cancel releases the closures, so an owner they capture is freed while the sink is kept")
  func cancelReleasesClosures() {
    final class Owner {
      var sink: Subscribers.Sink<Int, Never>?
      var received: [Int] = []
    }
    let subject = PassthroughSubject<Int, Never>()
    weak var weakOwner: Owner?
    var kept: Subscribers.Sink<Int, Never>?
    do {
      let owner = Owner()
      weakOwner = owner
      let sink = Subscribers.Sink<Int, Never>(
        receiveCompletion: { _ in _ = owner }, receiveValue: { owner.received.append($0) })
      owner.sink = sink  // a cycle: owner -> sink -> closures -> owner
      subject.subscribe(sink)
      subject.send(1)
      #expect(owner.received == [1])
      sink.cancel()
      kept = sink
    }
    #expect(weakOwner == nil)
    subject.send(2)  // nothing reaches the cancelled sink
    withExtendedLifetime(kept) {}
  }

  @Test("a sink cancelled from inside receiveValue releases its closures when that call returns")
  func cancelInsideReceiveReleasesAfterwards() {
    final class Token {}
    let subject = PassthroughSubject<Int, Never>()
    weak var weakToken: Token?
    var sink: Subscribers.Sink<Int, Never>?
    do {
      let token = Token()
      weakToken = token
      sink = Subscribers.Sink<Int, Never>(
        receiveCompletion: { _ in },
        receiveValue: { _ in
          sink?.cancel()
          // The running closure's captures are still alive here.
          #expect(weakToken != nil)
          _ = token
        })
      subject.subscribe(sink!)
    }
    subject.send(1)
    #expect(weakToken == nil)
  }
}
