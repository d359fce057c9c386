import CombineExCore
import CombineExTesting
import Testing

/// A second error type, to see `mapError` change the failure type.
private struct WrappedError: Error, Equatable {
  let underlying: TestError
}

@Suite("mapError")
struct MapErrorTests {
  @Test("converts the upstream's failure")
  func convertsFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.mapError { WrappedError(underlying: $0) }.record()
    subject.send(1)
    subject.send(completion: .failure(TestError(3)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(WrappedError(underlying: TestError(3))))
  }

  @Test("values and the finish pass through; the closure is not called")
  func finishPassesThrough() {
    var calls = 0
    let recorder = [1, 2].publisher.eraseToAnyPublisher().setFailureType(to: TestError.self)
      .mapError { error -> WrappedError in
        calls += 1
        return WrappedError(underlying: error)
      }
      .record()
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .finished)
    #expect(calls == 0)
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, TestError>().mapError { WrappedError(underlying: $0) }.record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().setFailureType(to: TestError.self)
      .mapError { WrappedError(underlying: $0) }
      .record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
  }

  @Test("demand and cancel go straight to the upstream")
  func demandAndCancelPassThrough() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let recorder = upstream.mapError { WrappedError(underlying: $0) }
      .record(initialDemand: .max(2))
    #expect(upstream.send(1) == .none)
    recorder.cancel()
    #expect(upstream.requests == [.max(2)])
    #expect(upstream.cancels == 1)
  }

  @Test("cancel frees the pipeline")
  func cancelFreesPipeline() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, TestError>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.mapError { error -> WrappedError in
        owner.values.append(error.id)
        return WrappedError(underlying: error)
      }
      .sink(receiveCompletion: { _ in }, receiveValue: { owner.values.append($0) })
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("both initializers build the same publisher")
  func initializers() {
    let first = Publishers.MapError(
      upstream: Fail<Int, TestError>(error: TestError(1)), { WrappedError(underlying: $0) })
    let second = Publishers.MapError(
      upstream: Fail<Int, TestError>(error: TestError(1)),
      transform: { WrappedError(underlying: $0) })
    #expect(first.transform(TestError(2)) == WrappedError(underlying: TestError(2)))
    #expect(first.record().receivedCompletion == second.record().receivedCompletion)
  }
}
