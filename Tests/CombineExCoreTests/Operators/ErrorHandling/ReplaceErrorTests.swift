import CombineExCore
import CombineExTesting
import Testing

@Suite("replaceError")
struct ReplaceErrorTests {
  @Test("a failure becomes the replacement followed by finished")
  func replacesFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.replaceError(with: -1).record()
    subject.send(1)
    subject.send(completion: .failure(TestError()))
    #expect(recorder.values == [1, -1])
    #expect(recorder.receivedCompletion == .finished)
    #expect(recorder.completionCount == 1)
  }

  @Test("a finish is passed on without the replacement")
  func finishPassesThrough() {
    let recorder = [1, 2].publisher.eraseToAnyPublisher().setFailureType(to: TestError.self)
      .replaceError(with: 0)
      .record()
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, TestError>().replaceError(with: 0).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("the result can never fail")
  func neverFails() {
    var received: [Int] = []
    let cancellable = Fail<Int, TestError>(error: TestError()).replaceError(with: 5)
      .sink { received.append($0) }
    #expect(received == [5])
    withExtendedLifetime(cancellable) {}
  }

  @Test("a failure with no outstanding demand waits for the next request")
  func replacementWaitsForDemand() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let recorder = upstream.replaceError(with: -1).record(initialDemand: .max(1))
    upstream.send(1)
    upstream.send(completion: .failure(TestError()))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1, -1])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("a failure before any request waits for the first request")
  func failureBeforeAnyRequest() {
    let recorder = Fail<Int, TestError>(error: TestError()).replaceError(with: 3)
      .record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(2))
    #expect(recorder.values == [3])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("demand the subscriber returns from receive(_:) counts as outstanding")
  func returnedDemandCounts() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let recorder = upstream.replaceError(with: -1).record(
      initialDemand: .max(1), demandAfterEachValue: .max(1))
    #expect(upstream.send(1) == .max(1))
    upstream.send(completion: .failure(TestError()))
    #expect(recorder.values == [1, -1])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("demand passes straight through to the upstream")
  func demandPassesThrough() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let recorder = upstream.replaceError(with: 0).record(initialDemand: .max(2))
    recorder.request(.unlimited)
    #expect(upstream.requests == [.max(2), .unlimited])
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().setFailureType(to: TestError.self)
      .replaceError(with: 0)
      .record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
  }

  @Test("cancel reaches the upstream and nothing arrives after it")
  func cancel() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let recorder = upstream.replaceError(with: 0).record()
    upstream.send(1)
    recorder.cancel()
    upstream.send(2)
    upstream.send(completion: .failure(TestError()))
    #expect(upstream.cancels == 1)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("cancel discards a replacement waiting for demand")
  func cancelDiscardsPendingReplacement() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let recorder = upstream.replaceError(with: 0).record(initialDemand: .none)
    upstream.send(completion: .failure(TestError()))
    recorder.cancel()
    recorder.request(.max(1))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("cancel frees the pipeline")
  func cancelFreesPipeline() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, TestError>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.replaceError(with: 0).sink { owner.values.append($0) }
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a request from inside receive(_:) is counted before the failure")
  func reentrantRequest() {
    let subject = PassthroughSubject<Int, TestError>()
    var subscription: (any Subscription)?
    var values: [Int] = []
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: {
        subscription = $0
        $0.request(.max(1))
      },
      receiveValue: { value in
        values.append(value)
        subscription?.request(.max(1))
        return .none
      },
      receiveCompletion: { _ in })
    subject.replaceError(with: -1).subscribe(subscriber)
    subject.send(1)
    subject.send(completion: .failure(TestError()))
    #expect(values == [1, -1])
  }

  @Test("Just never fails: it fuses into itself")
  func justFusion() {
    let fused: Just<Int> = Just(1).replaceError(with: 2)
    #expect(fused.output == 1)
  }

  @Test("publishers with equal upstreams and replacements are equal")
  func equatable() {
    let empty = Empty<Int, TestError>()
    #expect(empty.replaceError(with: 1) == empty.replaceError(with: 1))
    #expect(empty.replaceError(with: 1) != empty.replaceError(with: 2))
  }

  @Test("stress: a request racing the upstream's failure delivers the replacement exactly once")
  func stressRequestRacingFailure() async {
    let pipelines = (0..<300).map { _ in
      let upstream = ScriptedUpstream<Int, TestError>()
      let recorder = upstream.replaceError(with: 7).record(initialDemand: .none)
      return (upstream, recorder)
    }
    await concurrentPerform(pipelines.count * 2) { index in
      let (upstream, recorder) = pipelines[index / 2]
      if index.isMultiple(of: 2) {
        upstream.send(completion: .failure(TestError()))
      } else {
        recorder.request(.max(1))
      }
    }
    for (_, recorder) in pipelines {
      #expect(recorder.values == [7])
      #expect(recorder.completionCount == 1)
    }
  }

  @Test("a value from an upstream that sends without demand stops the program, as in Combine")
  func valueWithoutDemandTraps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = ManualUpstream<Int, TestError>()
      let recorder = upstream.replaceError(with: 0).record(initialDemand: .none)
      upstream.send(1)
      _ = recorder
    }
  }

  @Test("a value within the demand, or within demand returned for the last one, passes")
  func valueWithinDemandPasses() {
    let upstream = ManualUpstream<Int, TestError>()
    let recorder = upstream.replaceError(with: 0)
      .record(initialDemand: .max(1), demandAfterEachValue: .max(1))
    upstream.send(1)
    upstream.send(2)
    #expect(recorder.values == [1, 2])
  }
}
