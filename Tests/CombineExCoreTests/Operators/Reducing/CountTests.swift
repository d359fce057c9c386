import CombineExCore
import CombineExTesting
import Testing

@Suite("count()")
struct CountTests {
  @Test("publishes the number of elements when the upstream finishes")
  func countsElements() {
    let subject = PassthroughSubject<String, Never>()
    let recorder = subject.count().record()
    subject.send("a")
    subject.send("b")
    #expect(recorder.values.isEmpty)
    subject.send(completion: .finished)
    #expect(recorder.values == [2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("an empty upstream publishes 0")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().count().record()
    #expect(recorder.values == [0])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("the upstream's failure is passed on without a count")
  func upstreamFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.count().record()
    subject.send(1)
    subject.send(completion: .failure(TestError(2)))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(2)))
  }

  @Test("requests unlimited elements from the upstream")
  func requestsUnlimited() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.count().record(initialDemand: .max(1))
    #expect(upstream.requests == [.unlimited])
    #expect(upstream.send(1) == .none)
    upstream.send(completion: .finished)
    #expect(recorder.values == [1])
  }

  @Test("waits for demand before publishing the count")
  func waitsForDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().count().record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("Count is Equatable when its upstream is")
  func equatable() {
    // Built directly: `Just.count()` is fused into a `Just<Int>`, as in Combine.
    #expect(Publishers.Count(upstream: Just(1)) == Publishers.Count(upstream: Just(1)))
    #expect(Publishers.Count(upstream: Just(1)) != Publishers.Count(upstream: Just(2)))
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.count() }
  }
}
