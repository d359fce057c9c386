import CombineEx
import CombineExTesting
import Testing

@Suite("attemptMap")
struct AttemptMapTests {
  @Test("publishes the successes of the transform, then the upstream's finish")
  func successes() {
    let subject = PassthroughSubject<Int, ColdTestError>()
    let recorder = subject.attemptMap { .success("#\($0)") }.record()
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(recorder.values == ["#1", "#2"])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("a failure of the transform fails the stream, cancels the upstream, and nothing follows")
  func transformFailure() {
    let probe = SubscriptionProbe(PassthroughSubject<Int, ColdTestError>())
    let recorder = probe.publisher
      .attemptMap { $0 == 2 ? .failure(ColdTestError(2)) : .success($0) }
      .record()
    let subject = probe.upstream
    subject.send(1)
    subject.send(2)
    subject.send(3)
    subject.send(completion: .finished)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(ColdTestError(2)))
    #expect(recorder.completionCount == 1)
    #expect(probe.cancels == 1)
  }

  @Test("the upstream's failure passes through")
  func upstreamFailure() {
    let recorder = Fail<Int, ColdTestError>(error: ColdTestError(7))
      .attemptMap { .success($0) }
      .record()
    #expect(recorder.receivedCompletion == .failure(ColdTestError(7)))
  }

  @Test("demand passes straight through: .max(1), then more")
  func demand() {
    let recorder = [1, 2, 3].publisher.setFailureType(to: ColdTestError.self)
      .attemptMap { .success($0 * 10) }
      .record(initialDemand: .max(1))
    #expect(recorder.values == [10])
    recorder.request(.max(2))
    #expect(recorder.values == [10, 20, 30])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("cancel reaches the upstream, stops values and releases the subscriber")
  func cancel() {
    let probe = SubscriptionProbe(PassthroughSubject<Int, ColdTestError>())
    weak var weakRecorder: TestSubscriber<Int, ColdTestError>?
    do {
      let recorder = probe.publisher.attemptMap { .success($0) }.record()
      weakRecorder = recorder
      probe.upstream.send(1)
      recorder.cancel()
      probe.upstream.send(2)
      #expect(recorder.values == [1])
    }
    #expect(probe.cancels == 1)
    #expect(weakRecorder == nil)
  }

  @Test("re-entrant: a cancel from inside receive stops the stream")
  func reentrantCancel() {
    let subject = PassthroughSubject<Int, ColdTestError>()
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = subject.attemptMap { .success($0) }
      .sink(receiveCompletion: { _ in }) { value in
        received.append(value)
        cancellable?.cancel()
      }
    subject.send(1)
    subject.send(2)
    #expect(received == [1])
    _ = cancellable
  }

  @Test("returns Publishers.AttemptMap, cold on a cold upstream")
  func typeAndColdness() {
    let runs = RunCounter()
    let mapped = countingDeferred([1, 2], failure: ColdTestError.self, counter: runs)
      .attemptMap { .success($0 + 1) }
    #expect(
      type(of: mapped)
        == Publishers.AttemptMap<Deferred<Publishers.Sequence<[Int], ColdTestError>>, Int>.self)
    let erased: AnyDeferredPublisher<Int, ColdTestError> = mapped.eraseToAnyDeferredPublisher()
    #expect(erased.record().values == [2, 3])
    #expect(erased.record().values == [2, 3])
    #expect(runs.value == 2)
    #expect(!isCold(PassthroughSubject<Int, Never>().attemptMap { .success($0) }))
  }
}
