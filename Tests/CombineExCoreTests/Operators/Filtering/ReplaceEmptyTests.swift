import CombineExCore
import CombineExTesting
import Testing

@Suite("replaceEmpty")
struct ReplaceEmptyTests {
  @Test("an upstream that finishes empty publishes the replacement, then finishes")
  func replacesEmpty() {
    let recorder = Empty<Int, Never>().replaceEmpty(with: 42).record()
    #expect(recorder.values == [42])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(recorder.completionCount == 1)
  }

  @Test("an upstream with values passes them through without the replacement")
  func passesValues() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.replaceEmpty(with: 42).record()
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a failure of an empty upstream is passed on without the replacement")
  func failureWithoutValues() {
    let recorder = Fail<Int, TestError>(error: TestError(1)).replaceEmpty(with: 42).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("a failure after values is passed on")
  func failureAfterValues() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.replaceEmpty(with: 42).record()
    subject.send(1)
    subject.send(completion: .failure(TestError(2)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(TestError(2)))
  }

  @Test("the replacement waits for the subscriber's first request")
  func replacementWaitsForDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.replaceEmpty(with: 42).record(initialDemand: .none)
    upstream.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [42])
    #expect(recorder.receivedCompletion.isFinished)
    recorder.request(.max(1))
    #expect(recorder.values == [42])
    #expect(recorder.completionCount == 1)
  }

  @Test("demand passes straight through to the upstream")
  func demandPassesThrough() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.replaceEmpty(with: 0).record(initialDemand: .max(2))
    recorder.request(.max(3))
    #expect(upstream.requests == [.max(2), .max(3)])
    #expect(upstream.send(1) == .none)
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().replaceEmpty(with: 0).record(
      initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("cancel reaches the upstream and nothing arrives after it")
  func cancel() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.replaceEmpty(with: 0).record()
    recorder.cancel()
    upstream.send(1)
    upstream.send(completion: .finished)
    #expect(upstream.cancels == 1)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("cancel discards a replacement waiting for demand")
  func cancelDiscardsPendingReplacement() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.replaceEmpty(with: 42).record(initialDemand: .none)
    upstream.send(completion: .finished)
    recorder.cancel()
    recorder.request(.max(1))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("cancel frees the pipeline")
  func cancelFreesPipeline() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.replaceEmpty(with: 0).sink { owner.values.append($0) }
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("the subscriber may request more from inside receive(_:)")
  func reentrantRequest() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.replaceEmpty(with: 0).record(
      initialDemand: .max(1), demandAfterEachValue: .max(1))
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("Just is never empty: it fuses into itself")
  func justFusion() {
    let fused: Just<Int> = Just(1).replaceEmpty(with: 2)
    #expect(fused.output == 1)
  }

  @Test("publishers with equal upstreams and replacements are equal")
  func equatable() {
    let empty = Empty<Int, Never>()
    #expect(empty.replaceEmpty(with: 1) == empty.replaceEmpty(with: 1))
    #expect(empty.replaceEmpty(with: 1) != empty.replaceEmpty(with: 2))
  }

  @Test("stress: a request racing the upstream's finish delivers the replacement exactly once")
  func stressRequestRacingFinish() async {
    let pipelines = (0..<300).map { _ in
      let upstream = ScriptedUpstream<Int, Never>()
      let recorder = upstream.replaceEmpty(with: 7).record(initialDemand: .none)
      return (upstream, recorder)
    }
    await concurrentPerform(pipelines.count * 2) { index in
      let (upstream, recorder) = pipelines[index / 2]
      if index.isMultiple(of: 2) {
        upstream.send(completion: .finished)
      } else {
        recorder.request(.max(1))
      }
    }
    for (_, recorder) in pipelines {
      #expect(recorder.values == [7])
      #expect(recorder.completionCount == 1)
    }
  }
}
