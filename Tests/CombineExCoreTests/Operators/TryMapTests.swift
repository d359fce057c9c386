import CombineExCore
import CombineExTesting
import Testing

@Suite("tryMap")
struct TryMapTests {
  @Test("transforms every value and finishes with the upstream")
  func transformsValues() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().tryMap { $0 * 2 }.record()
    #expect(recorder.values == [2, 4, 6])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a thrown error fails the publisher and cancels the upstream")
  func throwingCancelsUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder =
      subject
      .handleCancelForTest { cancelled = true }
      .tryMap { value -> Int in
        if value == 2 { throw TestError(2) }
        return value
      }
      .record()
    subject.send(1)
    subject.send(2)
    subject.send(3)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(2))
    #expect(recorder.completionCount == 1)
    #expect(cancelled)
  }

  @Test("passes the upstream's failure on")
  func forwardsUpstreamFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(7)).tryMap { $0 }.record()
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(7))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().tryMap { $0 }.record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().tryMap { $0 }.record(
      initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
  }

  @Test("map.tryMap and tryMap.map fuse into one TryMap")
  func fusion() {
    let fused: Publishers.TryMap<Publishers.Sequence<[Int], Never>, String> = [1].publisher
      .map { $0 + 1 }.tryMap { "\($0)" }
    let refused: Publishers.TryMap<Publishers.Sequence<[Int], Never>, Int> = [1].publisher
      .tryMap { $0 + 1 }.map { $0 * 10 }
    #expect(fused.record().values == ["2"])
    #expect(refused.record().values == [20])
  }

  @Test("cancel releases the downstream")
  func cancelReleases() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.tryMap { $0 }.sink(
        receiveCompletion: { _ in }, receiveValue: { owner.values.append($0) })
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }
}
