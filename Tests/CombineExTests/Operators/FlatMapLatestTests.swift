import CombineEx
import CombineExTesting
import Testing

@Suite("flatMapLatest")
struct FlatMapLatestTests {
  @Test("republishes the values of the latest inner publisher only")
  func switchesToLatest() {
    let outer = PassthroughSubject<Int, ColdTestError>()
    let inners = [
      PassthroughSubject<String, ColdTestError>(), PassthroughSubject<String, ColdTestError>(),
    ]
    let recorder = outer.flatMapLatest { inners[$0] }.record()
    outer.send(0)
    inners[0].send("a")
    outer.send(1)
    inners[0].send("stale")
    inners[1].send("b")
    #expect(recorder.values == ["a", "b"])
  }

  @Test("a new value cancels the previous inner publisher")
  func cancelsPrevious() {
    let outer = PassthroughSubject<Int, Never>()
    let probe = SubscriptionProbe(PassthroughSubject<Int, Never>())
    let recorder = outer.flatMapLatest { value -> AnyPublisher<Int, Never> in
      value == 0 ? probe.publisher : Just(value).eraseToAnyPublisher()
    }.record()
    outer.send(0)
    outer.send(1)
    #expect(probe.cancels == 1)
    #expect(recorder.values == [1])
  }

  @Test("finishes once the upstream and the latest inner publisher finished")
  func finishing() {
    let outer = PassthroughSubject<Int, Never>()
    let inner = PassthroughSubject<Int, Never>()
    let recorder = outer.flatMapLatest { _ in inner }.record()
    outer.send(1)
    outer.send(completion: .finished)
    #expect(recorder.receivedCompletion == nil)
    inner.send(completion: .finished)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("an inner failure fails the result")
  func innerFailure() {
    let recorder = Just(1).setFailureType(to: ColdTestError.self)
      .flatMapLatest { _ in Fail<Int, ColdTestError>(error: ColdTestError(3)) }
      .record()
    #expect(recorder.receivedCompletion == .failure(ColdTestError(3)))
  }

  @Test("returns map then switchToLatest, cold on a cold upstream")
  func typeAndColdness() {
    let runs = RunCounter()
    let latest = countingDeferred([1, 2], counter: runs).flatMapLatest { Just($0 * 10) }
    typealias Source = Deferred<Publishers.Sequence<[Int], Never>>
    #expect(
      type(of: latest)
        == Publishers.SwitchToLatest<Just<Int>, Publishers.Map<Source, Just<Int>>>.self)
    let erased: AnyDeferredPublisher<Int, Never> = latest.eraseToAnyDeferredPublisher()
    #expect(erased.record().values == [10, 20])
    #expect(runs.value == 1)
  }
}
