import CombineExCore
import CombineExTesting
import Testing

@Suite("prefix(_:)")
struct PrefixTests {
  @Test("republishes up to maxLength elements, then finishes and cancels the upstream")
  func republishesPrefix() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.prefix(2).record()
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(recorder.completionCount == 1)
    #expect(upstream.cancels == 1)
  }

  @Test("the result is output(in: 0..<maxLength), a Publishers.Output")
  func resultIsOutput() {
    let subject = PassthroughSubject<Int, Never>()
    let publisher: Publishers.Output<PassthroughSubject<Int, Never>> = subject.prefix(3)
    #expect(publisher.range == 0..<3)
  }

  @Test("an upstream that finishes first ends the stream")
  func upstreamFinishesFirst() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.prefix(5).record()
    subject.send(1)
    subject.send(completion: .finished)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("passes the upstream's failure on")
  func forwardsFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.prefix(5).record()
    subject.send(1)
    subject.send(completion: .failure(TestError(6)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(TestError(6)))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().prefix(3).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("prefix(0) publishes nothing")
  func prefixZero() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.prefix(0).record()
    subject.send(1)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = [1, 2, 3, 4].publisher.eraseToAnyPublisher().prefix(3)
      .record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    recorder.request(.max(5))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("cancel reaches the upstream and nothing arrives after it")
  func cancel() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.prefix(5).record()
    upstream.send(1)
    recorder.cancel()
    upstream.send(2)
    #expect(upstream.cancels == 1)
    #expect(recorder.values == [1])
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
      cancellable = subject.prefix(5).sink { owner.values.append($0) }
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a sequence publisher fuses into a Publishers.Sequence of PrefixSequence")
  func sequenceFusion() {
    let fused: Publishers.Sequence<PrefixSequence<[Int]>, Never> = [1, 2, 3].publisher.prefix(2)
    #expect(fused.record().values == [1, 2])
  }

  @Test("a negative maxLength stops the program")
  func negativeMaxLength() async {
    await #expect(processExitsWith: .failure) {
      _ = PassthroughSubject<Int, Never>().prefix(-1)
    }
  }
}
