import CombineExCore
import CombineExTesting
import Testing

/// A publisher that records what its subscribers request and hands out subscriptions that can
/// be watched (weakly) after they end.
private final class RequestRecordingPublisher: Publisher, @unchecked Sendable {
  typealias Output = Int
  typealias Failure = Never

  var requests: [Subscribers.Demand] = []
  /// The subscribers it was given (the subject's connections), held weakly.
  var subscribers: [WeakObject] = []

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    subscribers.append(WeakObject(subscriber as AnyObject))
    subscriber.receive(subscription: Recording(publisher: self))
  }

  final class Recording: Subscription {
    let publisher: RequestRecordingPublisher
    init(publisher: RequestRecordingPublisher) { self.publisher = publisher }
    func request(_ demand: Subscribers.Demand) { publisher.requests.append(demand) }
    func cancel() {}
  }
}

/// A weak reference to an object.
private struct WeakObject {
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}

@Suite("Subjects: upstream subscriptions")
struct SubjectUpstreamTests {
  @Test("a PassthroughSubject requests from its upstream only when the first demand arrives")
  func passthroughRequestsOnFirstDemand() {
    let upstream = RequestRecordingPublisher()
    let subject = PassthroughSubject<Int, Never>()
    let connection = upstream.subscribe(subject)
    #expect(upstream.requests.isEmpty)
    let recorder = subject.record(initialDemand: .none)
    #expect(upstream.requests.isEmpty)
    recorder.request(.max(1))
    #expect(upstream.requests == [.unlimited])
    let second = subject.record()
    recorder.request(.max(1))
    #expect(upstream.requests == [.unlimited], "requested once, not per demand")
    _ = (connection, second)
  }

  @Test("a PassthroughSubject that had demand requests from a new upstream at once")
  func passthroughRequestsNewUpstreamAtOnce() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record()
    let upstream = RequestRecordingPublisher()
    let connection = upstream.subscribe(subject)
    #expect(upstream.requests == [.unlimited])
    _ = (connection, recorder)
  }

  @Test("a CurrentValueSubject requests from its upstream at once")
  func currentValueRequestsAtOnce() {
    let upstream = RequestRecordingPublisher()
    let subject = CurrentValueSubject<Int, Never>(0)
    let connection = upstream.subscribe(subject)
    #expect(upstream.requests == [.unlimited])
    _ = connection
  }

  @Test("a value published before the first subscriber reaches it (Combine's relay)")
  func currentValueRelayedThroughPassthrough() {
    let source = CurrentValueSubject<String, Never>("initial")
    let relay = PassthroughSubject<String, Never>()
    let connection = source.subscribe(relay)
    var received: [String] = []
    let cancellable = relay.sink { received.append($0) }
    source.send("1")
    #expect(received == ["initial", "1"])
    _ = (connection, cancellable)
  }

  @Test("Just subscribed to a subject delivers its value to the subject's later subscriber")
  func justThroughPassthrough() {
    let subject = PassthroughSubject<Int, Never>()
    let connection = Just(42).subscribe(subject)
    var received: [Int] = []
    var completion: Subscribers.Completion<Never>?
    let cancellable = subject.sink(
      receiveCompletion: { completion = $0 }, receiveValue: { received.append($0) })
    #expect(received == [42])
    #expect(completion == .finished)
    _ = (connection, cancellable)
  }

  @Test("a subject drops the connections that were cancelled when it is connected again")
  func dropsEndedConnections() {
    let upstream = RequestRecordingPublisher()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record()
    for _ in 0..<5 {
      let connection = upstream.subscribe(subject)
      connection.cancel()
    }
    let live = upstream.subscribe(subject)
    // Each past connection was freed once the next one arrived; only the live one is held.
    #expect(upstream.subscribers.filter { $0.object != nil }.count == 1)
    _ = (live, recorder)
  }

  @Test("share() reconnecting again and again does not accumulate connections")
  func shareReconnects() {
    let upstream = RequestRecordingPublisher()
    let shared = upstream.share()
    for _ in 0..<5 {
      let cancellable = shared.sink { _ in }
      cancellable.cancel()
    }
    let cancellable = shared.sink { _ in }
    #expect(upstream.subscribers.filter { $0.object != nil }.count == 1)
    _ = cancellable
  }
}
