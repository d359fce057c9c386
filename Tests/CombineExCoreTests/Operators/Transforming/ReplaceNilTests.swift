import CombineExCore
import CombineExTesting
import Testing

@Suite("replaceNil")
struct ReplaceNilTests {
  @Test("replaces nil elements and unwraps the others")
  func replacesNil() {
    let subject = PassthroughSubject<Int?, Never>()
    let recorder = subject.replaceNil(with: 0).record()
    subject.send(1)
    subject.send(nil)
    subject.send(3)
    subject.send(completion: .finished)
    #expect(recorder.values == [1, 0, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("passes the upstream's failure on")
  func forwardsFailure() {
    let recorder = Fail<Int?, TestError>(error: TestError(1)).replaceNil(with: 0).record()
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int?, Never>().replaceNil(with: 0).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = [nil, 2, nil].publisher.eraseToAnyPublisher().replaceNil(with: 7)
      .record(initialDemand: .max(1))
    #expect(recorder.values == [7])
    recorder.request(.max(1))
    #expect(recorder.values == [7, 2])
  }

  @Test("the result is a Publishers.Map, which fuses with map")
  func resultIsMap() {
    let subject = PassthroughSubject<Int?, Never>()
    let replaced: Publishers.Map<PassthroughSubject<Int?, Never>, Int> = subject.replaceNil(with: 0)
    let fused: Publishers.Map<PassthroughSubject<Int?, Never>, String> = replaced.map { "\($0)" }
    let recorder = fused.record()
    subject.send(nil)
    #expect(recorder.values == ["0"])
  }

  @Test("a sequence publisher fuses into a Publishers.Sequence of optionals, as in Combine")
  func sequenceFusion() {
    let fused: Publishers.Sequence<[Int?], Never> = [1, nil, 3].publisher.replaceNil(with: 0)
    #expect(fused.sequence == [1, 0, 3])
    #expect(fused.record().values == [1, 0, 3])
  }

  @Test("cancel frees the pipeline")
  func cancelFreesPipeline() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int?, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.replaceNil(with: 0).sink { owner.values.append($0) }
    }
    subject.send(nil)
    #expect(weakOwner?.values == [0])
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }
}
