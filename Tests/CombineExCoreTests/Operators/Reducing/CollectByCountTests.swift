import CombineExCore
import CombineExTesting
import Testing

@Suite("collect(_ count:)")
struct CollectByCountTests {
  @Test("publishes arrays of count elements, and the partial last one on finish")
  func publishesBatches() {
    let recorder = [1, 2, 3, 4, 5].publisher.eraseToAnyPublisher().collect(2).record()
    #expect(recorder.values == [[1, 2], [3, 4], [5]])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("publishes each array as soon as it is full")
  func publishesWhenFull() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.collect(3).record()
    subject.send(1)
    subject.send(2)
    #expect(recorder.values.isEmpty)
    subject.send(3)
    #expect(recorder.values == [[1, 2, 3]])
  }

  @Test("on failure the buffered elements are dropped and the failure is passed on")
  func failureDropsBuffer() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.collect(2).record()
    subject.send(1)
    subject.send(2)
    subject.send(3)
    subject.send(completion: .failure(TestError(3)))
    #expect(recorder.values == [[1, 2]])
    #expect(recorder.receivedCompletion == .failure(TestError(3)))
  }

  @Test("an empty upstream finishes without arrays")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().collect(2).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a finish right after a full array publishes no empty array")
  func noEmptyTail() {
    let recorder = [1, 2].publisher.eraseToAnyPublisher().collect(2).record()
    #expect(recorder.values == [[1, 2]])
  }

  @Test("a demand of .max(1) with count 2 asks the upstream for 2 and receives one array of 2")
  func multipliesDemand() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.collect(2).record(initialDemand: .max(1))
    #expect(upstream.requests == [.max(2)])
    #expect(upstream.send(1) == .none)
    #expect(upstream.send(2) == .none)
    #expect(recorder.values == [[1, 2]])
  }

  @Test("later requests are multiplied too, and .none asks for nothing")
  func multipliesLaterRequests() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.collect(3).record(initialDemand: .none)
    #expect(upstream.requests.isEmpty)
    recorder.request(.max(2))
    recorder.request(.unlimited)
    #expect(upstream.requests == [.max(6), .unlimited])
  }

  @Test("the demand the subscriber returns for an array is multiplied on its way upstream")
  func multipliesReturnedDemand() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.collect(2).record(
      initialDemand: .max(1), demandAfterEachValue: .max(3))
    #expect(upstream.send(1) == .none)
    #expect(upstream.send(2) == .max(6))
    #expect(recorder.values == [[1, 2]])
  }

  @Test("honours demand end to end: one array per request")
  func honoursDemand() {
    let recorder = Array(1...7).publisher.collect(3).record(initialDemand: .max(1))
    #expect(recorder.values == [[1, 2, 3]])
    recorder.request(.max(1))
    #expect(recorder.values == [[1, 2, 3], [4, 5, 6]])
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [[1, 2, 3], [4, 5, 6], [7]])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a request made from inside the subscriber is multiplied and honoured")
  func reentrantRequest() {
    let subscriber = CallbackSubscriber<[Int], Never>(initialDemand: .max(1)) { _, subscriber in
      subscriber.request(.max(1))
      return .none
    }
    Array(1...5).publisher.collect(2).subscribe(subscriber)
    #expect(subscriber.values == [[1, 2], [3, 4], [5]])
    #expect(subscriber.completions.count == 1)
  }

  @Test("a cancel from inside the subscriber stops delivery and drops the buffer")
  func reentrantCancel() {
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = CallbackSubscriber<[Int], Never>(initialDemand: .unlimited) {
      _, subscriber in
      subscriber.cancel()
      return .none
    }
    subject.collect(2).subscribe(subscriber)
    for value in 1...5 { subject.send(value) }
    subject.send(completion: .finished)
    #expect(subscriber.values == [[1, 2]])
    #expect(subscriber.completions.isEmpty)
  }

  @Test("CollectByCount is Equatable when its upstream is, and keeps its count")
  func equatable() {
    #expect(Just(1).collect(2) == Just(1).collect(2))
    #expect(Just(1).collect(2) != Just(1).collect(3))
    #expect(Just(1).collect(4).count == 4)
  }

  @Test("a count below 1 is an API violation")
  func nonPositiveCountTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = Just(1).collect(0)
    }
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.collect(2) }
  }
}
