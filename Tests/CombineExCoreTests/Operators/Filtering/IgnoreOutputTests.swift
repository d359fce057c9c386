import CombineExCore
import CombineExTesting
import Testing

@Suite("ignoreOutput")
struct IgnoreOutputTests {
  @Test("publishes no values and passes the finish on")
  func forwardsFinishOnly() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.ignoreOutput().record()
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("passes the upstream's failure on")
  func forwardsFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.ignoreOutput().record()
    subject.send(1)
    subject.send(completion: .failure(TestError(2)))
    #expect(recorder.receivedCompletion == .failure(TestError(2)))
  }

  @Test("an empty upstream finishes")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().ignoreOutput().record()
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("requests unlimited from the upstream whatever the subscriber's demand")
  func requestsUnlimited() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.ignoreOutput().record(initialDemand: .none)
    #expect(upstream.requests == [.unlimited])
    #expect(upstream.send(1) == .none)
    upstream.send(completion: .finished)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("the completion arrives even if the subscriber never requested anything")
  func completionWithoutDemand() {
    let recorder = Publishers.IgnoreOutput(upstream: [1, 2, 3].publisher.eraseToAnyPublisher())
      .record(initialDemand: .none)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("cancel reaches the upstream")
  func cancelReachesUpstream() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.ignoreOutput().record()
    recorder.cancel()
    #expect(upstream.cancels == 1)
  }

  @Test("nothing arrives after cancel")
  func nothingAfterCancel() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.ignoreOutput().record()
    recorder.cancel()
    subject.send(completion: .finished)
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
      cancellable = subject.ignoreOutput().sink(
        receiveCompletion: { _ in owner.values.append(0) }, receiveValue: { _ in })
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a sequence publisher fuses into Empty")
  func sequenceFusion() {
    let fused: Empty<Int, Never> = [1, 2].publisher.ignoreOutput()
    #expect(fused.completeImmediately)
    #expect(fused.record().receivedCompletion.isFinished)
  }

  @Test("Just fuses into Empty")
  func justFusion() {
    let fused: Empty<Int, Never> = Just(1).ignoreOutput()
    #expect(fused.record().receivedCompletion.isFinished)
  }

  @Test("publishers with equal upstreams are equal")
  func equatable() {
    #expect(Empty<Int, Never>().ignoreOutput() == Empty<Int, Never>().ignoreOutput())
    #expect(
      Empty<Int, Never>().ignoreOutput()
        != Empty<Int, Never>(completeImmediately: false).ignoreOutput())
  }
}
