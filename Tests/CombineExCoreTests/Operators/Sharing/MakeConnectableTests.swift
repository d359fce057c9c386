import CombineExCore
import CombineExTesting
import Testing

@Suite("makeConnectable()")
struct MakeConnectableTests {
  @Test("nothing flows until connect()")
  func nothingBeforeConnect() {
    let log = UpstreamLog()
    let connectable = [1, 2, 3].publisher.probed(log).makeConnectable()
    let recorder = connectable.record()
    #expect(recorder.isSubscribed)
    #expect(recorder.values.isEmpty)
    #expect(log.subscriptions == 0)
    let connection = connectable.connect()
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
    connection.cancel()
  }

  @Test("connect() broadcasts to every attached subscriber")
  func broadcasts() {
    let subject = PassthroughSubject<Int, Never>()
    let connectable = subject.makeConnectable()
    let first = connectable.record()
    let second = connectable.record()
    let connection = connectable.connect()
    subject.send(1)
    subject.send(2)
    #expect(first.values == [1, 2])
    #expect(second.values == [1, 2])
    connection.cancel()
  }

  @Test("the upstream is asked for unlimited values once a subscriber asks (as in Combine)")
  func unlimitedDemand() {
    let log = UpstreamLog()
    let connectable = PassthroughSubject<Int, Never>().probed(log).makeConnectable()
    let connection = connectable.connect()
    // Its PassthroughSubject requests from the upstream on the first downstream demand.
    #expect(log.requests == [])
    let recorder = connectable.record()
    #expect(log.requests == [.unlimited])
    connection.cancel()
    _ = recorder
  }

  @Test("a subscriber without demand misses values, as with a PassthroughSubject")
  func noDemandMisses() {
    let subject = PassthroughSubject<Int, Never>()
    let connectable = subject.makeConnectable()
    let recorder = connectable.record(initialDemand: .none)
    let connection = connectable.connect()
    subject.send(1)
    recorder.request(.max(1))
    subject.send(2)
    #expect(recorder.values == [2])
    connection.cancel()
  }

  @Test("cancelling the connection cancels the upstream; subscribers get no completion")
  func cancelConnection() {
    let log = UpstreamLog()
    let subject = PassthroughSubject<Int, Never>()
    let connectable = subject.probed(log).makeConnectable()
    let recorder = connectable.record()
    let connection = connectable.connect()
    subject.send(1)
    connection.cancel()
    subject.send(2)
    #expect(log.cancels == 1)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("each connect() subscribes to the upstream again, as in Combine")
  func connectTwice() {
    let log = UpstreamLog()
    let subject = PassthroughSubject<Int, Never>()
    let connectable = subject.probed(log).makeConnectable()
    let recorder = connectable.record()
    let first = connectable.connect()
    let second = connectable.connect()
    #expect(log.subscriptions == 2)
    subject.send(1)
    #expect(recorder.values == [1, 1])
    second.cancel()
    #expect(log.cancels == 1)
    first.cancel()
    #expect(log.cancels == 2)
  }

  @Test("connect() after a cancelled connection subscribes to the upstream anew")
  func reconnect() {
    let log = UpstreamLog()
    let subject = PassthroughSubject<Int, Never>()
    let connectable = subject.probed(log).makeConnectable()
    let recorder = connectable.record()
    connectable.connect().cancel()
    subject.send(1)
    let connection = connectable.connect()
    subject.send(2)
    #expect(log.subscriptions == 2)
    #expect(recorder.values == [2])
    connection.cancel()
  }

  @Test("after the upstream completes, late subscribers receive only the completion")
  func lateSubscriber() {
    let connectable = [1].publisher.makeConnectable()
    let early = connectable.record()
    let connection = connectable.connect()
    let late = connectable.record()
    #expect(early.values == [1])
    #expect(late.values == [])
    #expect(late.receivedCompletion == .finished)
    connection.cancel()
  }

  @Test("a subscriber's cancel releases it")
  func cancelReleases() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    let connectable = subject.makeConnectable()
    let connection = connectable.connect()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = connectable.sink { owner.values.append($0) }
    }
    subject.send(1)
    #expect(weakOwner?.values == [1])
    cancellable?.cancel()
    #expect(weakOwner == nil)
    connection.cancel()
  }

  @Test("a subscriber's subscription shows Multicast, as in Combine, with no children")
  func subscriptionReflection() throws {
    let connectable = PassthroughSubject<Int, Never>().makeConnectable()
    let keeper = SubscriptionKeeper<Int, Never>()
    connectable.subscribe(keeper)
    let view = DebuggerView(try #require(keeper.subscription))
    #expect(view.description == "Multicast")
    #expect(view.playgroundDescription == "Multicast")
    #expect(view.labels == [])
  }
}
