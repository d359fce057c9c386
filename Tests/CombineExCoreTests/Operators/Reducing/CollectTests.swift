import CombineExCore
import CombineExTesting
import Testing

@Suite("collect()")
struct CollectTests {
  @Test("publishes all the elements in one array when the upstream finishes")
  func collectsEverything() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.collect().record()
    subject.send(1)
    subject.send(2)
    #expect(recorder.values.isEmpty)
    subject.send(completion: .finished)
    #expect(recorder.values == [[1, 2]])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("an empty upstream publishes an empty array")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().collect().record()
    #expect(recorder.values == [[]])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("the upstream's failure is passed on and the collected elements are dropped")
  func upstreamFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.collect().record()
    subject.send(1)
    subject.send(completion: .failure(TestError(1)))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("requests unlimited elements from the upstream, whatever the subscriber's demand")
  func requestsUnlimited() {
    let upstream = ManualUpstream<Int, Never>()
    _ = upstream.collect().record(initialDemand: .none)
    #expect(upstream.requests == [.unlimited])
  }

  @Test("waits for demand before publishing the array")
  func waitsForDemand() {
    let recorder = [1, 2].publisher.eraseToAnyPublisher().collect().record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [[1, 2]])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("Collect is Equatable when its upstream is")
  func equatable() {
    #expect(Just(1).collect() == Just(1).collect())
    #expect(Just(1).collect() != Just(2).collect())
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.collect() }
  }
}
