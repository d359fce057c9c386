import CombineExCore
import CombineExTesting
import Testing

@Suite("dropFirst")
struct DropTests {
  @Test("omits the first element by default")
  func dropsOneByDefault() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.dropFirst().record()
    for value in 1...3 { subject.send(value) }
    subject.send(completion: .finished)
    #expect(recorder.values == [2, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("omits the first count elements")
  func dropsCount() {
    let recorder = Publishers.Drop(
      upstream: [1, 2, 3, 4, 5].publisher.eraseToAnyPublisher(), count: 3
    ).record()
    #expect(recorder.values == [4, 5])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("dropping zero elements passes everything")
  func dropsZero() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.dropFirst(0).record()
    subject.send(1)
    #expect(recorder.values == [1])
  }

  @Test("dropping more elements than the upstream has finishes empty")
  func dropsMoreThanAvailable() {
    let recorder = Publishers.Drop(upstream: [1, 2].publisher.eraseToAnyPublisher(), count: 5)
      .record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("passes the upstream's failure on")
  func forwardsFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.dropFirst().record()
    subject.send(1)
    subject.send(completion: .failure(TestError(1)))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().dropFirst(2).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("requests the elements to drop up front, then passes demand through")
  func requestsDroppedElementsUpFront() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.dropFirst(2).record(initialDemand: .none)
    #expect(upstream.requests == [.max(2)])
    #expect(upstream.send(1) == .none)
    #expect(upstream.send(2) == .none)
    recorder.request(.max(1))
    #expect(upstream.requests == [.max(2), .max(1)])
    upstream.send(3)
    #expect(recorder.values == [3])
  }

  @Test("demand requested before the upstream arrives is added to the elements to drop")
  func earlyDemandIsKept() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.dropFirst(2).record(initialDemand: .max(3))
    #expect(upstream.requests == [.max(5)])
    for value in 1...5 { upstream.send(value) }
    #expect(recorder.values == [3, 4, 5])
  }

  @Test("a hot upstream drops what it sends while the subscriber has no demand, like Combine")
  func hotUpstreamWithoutDemand() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.dropFirst(2).record(initialDemand: .none)
    subject.send(1)  // dropped by the operator
    subject.send(2)  // dropped by the operator
    subject.send(3)  // no demand: the subject drops it
    recorder.request(.max(1))
    subject.send(4)
    subject.send(5)  // demand used up
    #expect(recorder.values == [4])
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = Publishers.Drop(
      upstream: [1, 2, 3, 4].publisher.eraseToAnyPublisher(), count: 1
    )
    .record(initialDemand: .max(1))
    #expect(recorder.values == [2])
    recorder.request(.max(1))
    #expect(recorder.values == [2, 3])
    recorder.request(.max(5))
    #expect(recorder.values == [2, 3, 4])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("cancel reaches the upstream and nothing arrives after it")
  func cancel() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.dropFirst().record()
    upstream.send(1)
    upstream.send(2)
    recorder.cancel()
    upstream.send(3)
    upstream.send(completion: .finished)
    recorder.request(.max(1))
    #expect(upstream.cancels == 1)
    #expect(upstream.requests == [.unlimited])
    #expect(recorder.values == [2])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("a cancel before the upstream's subscription arrives cancels that subscription")
  func cancelBeforeUpstream() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .unlimited)
    upstream.dropFirst().subscribe(CancelOnSubscribe(wrapped: recorder))
    upstream.send(1)
    upstream.send(2)
    #expect(upstream.cancels == 1)
    #expect(upstream.requests.isEmpty)
    #expect(recorder.values.isEmpty)
  }

  @Test("cancel frees the pipeline")
  func cancelFreesPipeline() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.dropFirst().sink { owner.values.append($0) }
    }
    subject.send(1)
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a value sent from inside the subscriber arrives in order")
  func reentrantSend() {
    let subject = PassthroughSubject<Int, Never>()
    var values: [Int] = []
    let cancellable = subject.dropFirst().sink { value in
      values.append(value)
      if value == 2 { subject.send(3) }
    }
    subject.send(1)
    subject.send(2)
    #expect(values == [2, 3])
    withExtendedLifetime(cancellable) {}
  }

  @Test("a sequence publisher fuses into a Publishers.Sequence of DropFirstSequence")
  func sequenceFusion() {
    let fused: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = [1, 2, 3].publisher
      .dropFirst()
    #expect(fused.record().values == [2, 3])
  }

  @Test("publishers with equal upstreams and counts are equal")
  func equatable() {
    let subject = Empty<Int, Never>()
    #expect(subject.dropFirst(2) == subject.dropFirst(2))
    #expect(subject.dropFirst(2) != subject.dropFirst(3))
  }

  @Test("a negative count stops the program when subscribed")
  func negativeCount() async {
    await #expect(processExitsWith: .failure) {
      _ = Empty<Int, Never>().dropFirst(-1).sink { _ in }
    }
  }

  @Test("stress: values and requests from many threads are delivered serially")
  func stressConcurrentDemand() async {
    let subject = PassthroughSubject<Int, Never>()
    let checker = SerialDeliveryChecker()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    subject.dropFirst(10).handleEvents(receiveOutput: { checker.receive($0) })
      .subscribe(subscriber)
    await concurrentPerform(200) { index in
      if index.isMultiple(of: 2) {
        subject.send(index)
      } else {
        subscriber.request(.max(1))
      }
    }
    #expect(checker.overlaps == 0)
    #expect(checker.values.count <= 101)
    #expect(subscriber.values == checker.values)
  }
}

/// Cancels its subscription as soon as it arrives, before passing it on.
private struct CancelOnSubscribe<Wrapped: Subscriber>: Subscriber {
  let wrapped: Wrapped
  var combineIdentifier: CombineIdentifier { wrapped.combineIdentifier }
  func receive(subscription: any Subscription) {
    subscription.cancel()
    wrapped.receive(subscription: subscription)
  }
  func receive(_ input: Wrapped.Input) -> Subscribers.Demand { wrapped.receive(input) }
  func receive(completion: Subscribers.Completion<Wrapped.Failure>) {
    wrapped.receive(completion: completion)
  }
}
