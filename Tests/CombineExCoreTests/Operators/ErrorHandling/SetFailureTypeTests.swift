import CombineExCore
import CombineExTesting
import Testing

@Suite("setFailureType")
struct SetFailureTypeTests {
  @Test("republishes values and finishes with the new failure type")
  func republishes() {
    let subject = PassthroughSubject<Int, Never>()
    let publisher: Publishers.SetFailureType<PassthroughSubject<Int, Never>, TestError> =
      subject.setFailureType(to: TestError.self)
    let recorder = publisher.record()
    subject.send(1)
    subject.send(completion: .finished)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().setFailureType(to: TestError.self).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("matches failure types so that publishers can be combined")
  func matchesFailureTypes() {
    let numbers: AnyPublisher<Int, TestError> = Just(1).setFailureType(to: TestError.self)
      .eraseToAnyPublisher()
    let recorder = numbers.record()
    #expect(recorder.values == [1])
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = Publishers.SetFailureType<_, TestError>(
      upstream: [1, 2, 3].publisher.eraseToAnyPublisher()
    )
    .record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
  }

  @Test("demand and cancel go straight to the upstream")
  func demandAndCancelPassThrough() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.setFailureType(to: TestError.self).record(initialDemand: .max(3))
    recorder.cancel()
    #expect(upstream.requests == [.max(3)])
    #expect(upstream.cancels == 1)
  }

  @Test("cancel frees the pipeline")
  func cancelFreesPipeline() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.setFailureType(to: TestError.self)
        .sink(receiveCompletion: { _ in }, receiveValue: { owner.values.append($0) })
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("setFailureType twice fuses into one SetFailureType over the same upstream")
  func fusion() {
    let subject = PassthroughSubject<Int, Never>()
    let fused: Publishers.SetFailureType<PassthroughSubject<Int, Never>, any Error> =
      subject
      .setFailureType(to: TestError.self)
      .setFailureType(to: (any Error).self)
    let recorder = fused.record()
    subject.send(4)
    #expect(recorder.values == [4])
  }

  @Test("a sequence publisher fuses into a Publishers.Sequence with the new failure type")
  func sequenceFusion() {
    let fused: Publishers.Sequence<[Int], TestError> = [1, 2].publisher
      .setFailureType(to: TestError.self)
    #expect(fused.record().values == [1, 2])
  }

  @Test("publishers with equal upstreams are equal")
  func equatable() {
    #expect(
      Empty<Int, Never>().setFailureType(to: TestError.self)
        == Empty<Int, Never>().setFailureType(to: TestError.self))
  }
}
