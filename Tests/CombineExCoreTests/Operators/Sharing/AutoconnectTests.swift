import CombineExCore
import CombineExTesting
import Dispatch
import Foundation
import Testing

/// A connectable publisher that counts its connections and disconnections.
final class CountingConnectable: ConnectablePublisher, @unchecked Sendable {
  // @unchecked Sendable: `counts` is guarded by `lock`; `subject` is thread-safe.
  typealias Output = Int
  typealias Failure = Never

  let subject = PassthroughSubject<Int, Never>()
  private let lock = NSLock()
  private var counts = (connects: 0, disconnects: 0)

  var connects: Int { lock.withLock { counts.connects } }
  var disconnects: Int { lock.withLock { counts.disconnects } }
  var isConnected: Bool { lock.withLock { counts.connects > counts.disconnects } }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    subject.receive(subscriber: subscriber)
  }

  func connect() -> any Cancellable {
    lock.withLock { counts.connects += 1 }
    return AnyCancellable { [self] in lock.withLock { counts.disconnects += 1 } }
  }
}

/// A connectable publisher that keeps the subscriber attached to it, for reflection tests.
private final class KeepingConnectable: ConnectablePublisher {
  typealias Output = Int
  typealias Failure = Never

  let upstream = AttachedSubscriberUpstream<Int, Never>()

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    upstream.receive(subscriber: subscriber)
  }

  func connect() -> any Cancellable { AnyCancellable {} }
}

@Suite("autoconnect()")
struct AutoconnectTests {
  @Test("the first subscriber connects; later ones share the connection")
  func connectsOnFirst() {
    let upstream = CountingConnectable()
    let autoconnected = upstream.autoconnect()
    #expect(upstream.connects == 0)
    let first = autoconnected.record()
    #expect(upstream.connects == 1)
    let second = autoconnected.record()
    #expect(upstream.connects == 1)
    upstream.subject.send(1)
    #expect(first.values == [1])
    #expect(second.values == [1])
    first.cancel()
    second.cancel()
  }

  @Test("the last subscriber's cancel disconnects")
  func lastCancelDisconnects() {
    let upstream = CountingConnectable()
    let autoconnected = upstream.autoconnect()
    let first = autoconnected.record()
    let second = autoconnected.record()
    first.cancel()
    #expect(upstream.disconnects == 0)
    second.cancel()
    #expect(upstream.disconnects == 1)
  }

  @Test("a subscriber after a disconnect connects again")
  func reconnects() {
    let upstream = CountingConnectable()
    let autoconnected = upstream.autoconnect()
    autoconnected.record().cancel()
    let recorder = autoconnected.record()
    #expect(upstream.connects == 2)
    #expect(upstream.isConnected)
    recorder.cancel()
    #expect(!upstream.isConnected)
  }

  @Test("the subscriber is attached before connecting, so it sees synchronous values")
  func attachedBeforeConnect() {
    let recorder = [1, 2, 3].publisher.makeConnectable().autoconnect().record()
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test(
    "the upstream's completion reaches subscribers; as in Combine, the connection stays and later subscribers do not connect again"
  )
  func completionKeepsConnection() {
    let upstream = CountingConnectable()
    let autoconnected = upstream.autoconnect()
    let recorder = autoconnected.record()
    upstream.subject.send(completion: .finished)
    #expect(recorder.receivedCompletion == .finished)
    #expect(upstream.disconnects == 0)
    let late = autoconnected.record()
    #expect(late.receivedCompletion == .finished)
    #expect(upstream.connects == 1)
    late.cancel()
    recorder.cancel()  // a cancel after the completion still counts the subscriber out
    #expect(upstream.disconnects == 1)
  }

  @Test("a subscriber receives the upstream's subscription (its name), as in Combine")
  func upstreamSubscriptionPassedOn() {
    let upstream = PassthroughSubject<Int, Never>()
    let autoconnected = upstream.multicast(subject: PassthroughSubject()).autoconnect()
    var description: String?
    var subscription: (any Subscription)?
    autoconnected.subscribe(
      AnySubscriber<Int, Never>(receiveSubscription: {
        description = String(describing: $0)
        subscription = $0
      }))
    #expect(description == "Multicast")  // the multicast's subscription, not "Autoconnect"
    subscription?.cancel()
  }

  @Test("nothing reaches a subscriber after its completion")
  func nothingAfterCompletion() {
    let upstream = PassthroughSubject<Int, Never>()
    let autoconnected = upstream.multicast(subject: PassthroughSubject()).autoconnect()
    let recorder = autoconnected.record()
    upstream.send(1)
    upstream.send(completion: .finished)
    upstream.send(2)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("demand passes through")
  func demand() {
    let upstream = CountingConnectable()
    let recorder = upstream.autoconnect().record(initialDemand: .max(1))
    upstream.subject.send(1)
    upstream.subject.send(2)
    recorder.request(.max(1))
    upstream.subject.send(3)
    #expect(recorder.values == [1, 3])
    recorder.cancel()
  }

  @Test("cancel releases the subscriber")
  func cancelReleases() {
    weak var weakOwner: TestOwner?
    let upstream = CountingConnectable()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = upstream.autoconnect().sink { owner.values.append($0) }
    }
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("Autoconnect is a class: copies share the connection")
  func sharedConnection() {
    let upstream = CountingConnectable()
    let autoconnected = upstream.autoconnect()
    let copy = autoconnected
    let first = autoconnected.record()
    let second = copy.record()
    #expect(upstream.connects == 1)
    #expect(autoconnected.upstream === upstream)
    first.cancel()
    second.cancel()
  }

  @Test("stress: concurrent subscribes and cancels leave connections balanced")
  func stressBalanced() async {
    let upstream = CountingConnectable()
    let autoconnected = upstream.autoconnect()
    await concurrentPerform(8) { _ in
      for _ in 0..<200 {
        // A subject attaches a subscriber later when another thread is delivering, so the
        // cancel may come before the subscription: the subscriber must still leave.
        autoconnected.sink { _ in }.cancel()
        autoconnected.record().cancel()
      }
    }
    #expect(!upstream.isConnected)
    #expect(upstream.connects == upstream.disconnects)
    #expect(upstream.connects >= 1)
  }

  // MARK: Reflection

  @Test("the subscriber attached upstream shows Autoconnect, the autoconnect and the downstream")
  func subscriberReflection() throws {
    let connectable = KeepingConnectable()
    let autoconnected = connectable.autoconnect()
    let keeper = SubscriptionKeeper<Int, Never>()
    autoconnected.subscribe(keeper)
    let attached = try #require(connectable.upstream.attached)
    let view = DebuggerView(attached)
    #expect(view.description == "Autoconnect")
    #expect(view.playgroundDescription == "Autoconnect")
    #expect(view.labels == ["parent", "downstream"])
    // (Compared outside #expect: the macro's `===` on `AnyObject` crashes Swift 6.3's SILGen.)
    let parentIsAutoconnect = view.child("parent") as AnyObject === autoconnected
    let downstreamIsKeeper = view.child("downstream") as AnyObject === keeper
    #expect(parentIsAutoconnect)
    #expect(downstreamIsKeeper)
    connectable.upstream.send(subscription: NamedTestSubscription())
    try #require(keeper.subscription).cancel()
    // Released once the subscriber left.
    #expect(DebuggerView(attached).child("downstream").map { "\($0)" } == "nil")
  }

  @Test("a subscriber's subscription shows the upstream's, with its identifier and no mirror")
  func subscriptionReflection() throws {
    let connectable = KeepingConnectable()
    let keeper = SubscriptionKeeper<Int, Never>()
    connectable.autoconnect().subscribe(keeper)
    let upstreamSubscription = NamedTestSubscription()
    connectable.upstream.send(subscription: upstreamSubscription)
    let subscription = try #require(keeper.subscription)
    let view = DebuggerView(subscription)
    #expect(view.description == "NamedTestSubscription")
    #expect(view.playgroundDescription == "NamedTestSubscription")
    #expect(view.children == nil)
    #expect(subscription.combineIdentifier == upstreamSubscription.combineIdentifier)
  }
}
