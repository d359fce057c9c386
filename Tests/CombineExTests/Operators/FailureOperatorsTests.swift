import CombineEx
import CombineExTesting
import Testing

@Suite("demoteFailure, ignoreFailure and promoteFailure")
struct FailureOperatorsTests {
  @Test("demoteFailure: values pass, a failure becomes .finished, and the failure type is Never")
  func demoteFailure() {
    let subject = PassthroughSubject<Int, ColdTestError>()
    let demoted = subject.demoteFailure()
    #expect(
      type(of: demoted)
        == Publishers.Catch<PassthroughSubject<Int, ColdTestError>, Empty<Int, Never>>.self)
    let recorder = demoted.record()
    subject.send(1)
    subject.send(completion: .failure(ColdTestError(1)))
    subject.send(2)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .finished)
    #expect(recorder.completionCount == 1)
  }

  @Test("ignoreFailure: a failure becomes .finished, and the failure type is kept")
  func ignoreFailure() {
    let subject = PassthroughSubject<Int, ColdTestError>()
    let ignored = subject.ignoreFailure()
    #expect(
      type(of: ignored)
        == Publishers.Catch<PassthroughSubject<Int, ColdTestError>, Empty<Int, ColdTestError>>
        .self)
    let recorder: TestSubscriber<Int, ColdTestError> = ignored.record()
    subject.send(1)
    subject.send(completion: .failure(ColdTestError(1)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("demoteFailure and ignoreFailure let .finished and demand through, and cancel upstream")
  func finishedDemandAndCancel() {
    let recorder = [1, 2, 3].publisher.setFailureType(to: ColdTestError.self)
      .demoteFailure()
      .record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.unlimited)
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)

    let probe = SubscriptionProbe(PassthroughSubject<Int, ColdTestError>())
    let ignoring = probe.publisher.ignoreFailure().record()
    ignoring.cancel()
    probe.upstream.send(1)
    #expect(probe.cancels == 1)
    #expect(ignoring.values.isEmpty)
  }

  @Test("promoteFailure gives a never-failing publisher the failure type the context expects")
  func promoteFailure() {
    let promoted: AnyPublisher<Int, ColdTestError> = Just(1).map { $0 + 1 }.promoteFailure()
      .map { $0 + 1 }.eraseToAnyPublisher()
    #expect(promoted.record().values == [3])
    let explicit = Just(1).promoteFailure() as Publishers.SetFailureType<Just<Int>, ColdTestError>
    #expect(explicit.record().receivedCompletion == .finished)
  }

  @Test("promoteFailure on a future returns a DeferredFuture where one is needed")
  func promoteFailureOnFuture() {
    let runs = RunCounter()
    let future = DeferredFuture<Int, Never> { promise in
      runs.increment()
      promise(.success(5))
    }
    let promoted: AnyDeferredFuture<Int, ColdTestError> = future.promoteFailure()
      .eraseToAnyDeferredFuture()
    #expect(runs.value == 0)
    #expect(promoted.record().values == [5])
    #expect(runs.value == 1)
    let plain =
      future.promoteFailure()
      as Publishers.SetFailureType<
        DeferredFuture<Int, Never>, ColdTestError
      >
    #expect(plain.record().values == [5])
  }

  @Test("on cold publishers all three stay cold")
  func coldness() {
    let runs = RunCounter()
    let source = countingDeferred([1], failure: ColdTestError.self, counter: runs)
    let demoted: AnyDeferredPublisher<Int, Never> = source.demoteFailure()
      .eraseToAnyDeferredPublisher()
    let ignored: AnyDeferredPublisher<Int, ColdTestError> = source.ignoreFailure()
      .eraseToAnyDeferredPublisher()
    let promoted: AnyDeferredPublisher<Int, ColdTestError> =
      countingDeferred([2], counter: runs).promoteFailure().eraseToAnyDeferredPublisher()
    #expect(demoted.record().values == [1])
    #expect(ignored.record().values == [1])
    #expect(promoted.record().values == [2])
    #expect(runs.value == 3)
  }
}
