import CombineEx
import CombineExTesting
import Testing

@Suite("prependDynamic")
struct PrependDynamicTests {
  @Test("publishes the computed value, then the upstream's values")
  func prepends() {
    let recorder = [1, 2].publisher.prependDynamic { 0 }.record()
    #expect(recorder.values == [0, 1, 2])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("the closure runs once per subscription, when the subscriber attaches")
  func evaluatedAtSubscription() {
    let calls = RunCounter()
    let publisher = Just(100).prependDynamic { calls.increment() }
    #expect(calls.value == 0)
    #expect(publisher.record().values == [1, 100])
    #expect(publisher.record().values == [2, 100])
    #expect(calls.value == 2)
  }

  @Test("the computed value waits for demand, and the upstream is subscribed after it")
  func demand() {
    let probe = SubscriptionProbe(PassthroughSubject<Int, Never>())
    let recorder = probe.publisher.prependDynamic { 0 }.record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    #expect(probe.subscriptions == 0)
    recorder.request(.max(1))
    #expect(recorder.values == [0])
    recorder.request(.max(1))
    probe.upstream.send(1)
    probe.upstream.send(2)
    #expect(recorder.values == [0, 1])
  }

  @Test("an upstream failure passes through; cancel reaches the upstream")
  func failureAndCancel() {
    let failing = Fail<Int, ColdTestError>(error: ColdTestError(1)).prependDynamic { 0 }.record()
    #expect(failing.values == [0])
    #expect(failing.receivedCompletion == .failure(ColdTestError(1)))

    let probe = SubscriptionProbe(PassthroughSubject<Int, Never>())
    let recorder = probe.publisher.prependDynamic { 0 }.record()
    recorder.cancel()
    probe.upstream.send(1)
    #expect(probe.cancels == 1)
    #expect(recorder.values == [0])
  }

  @Test("returns Publishers.PrependDynamic, cold on a cold upstream")
  func typeAndColdness() {
    let runs = RunCounter()
    let prepended = countingDeferred([1], counter: runs).prependDynamic { 0 }
    #expect(
      type(of: prepended)
        == Publishers.PrependDynamic<Deferred<Publishers.Sequence<[Int], Never>>>.self)
    let erased: AnyDeferredPublisher<Int, Never> = prepended.eraseToAnyDeferredPublisher()
    #expect(erased.record().values == [0, 1])
    #expect(runs.value == 1)
    #expect(!isCold(PassthroughSubject<Int, Never>().prependDynamic { 0 }))
  }
}
