import CombineExStore
import CombineExTesting
import Foundation
import Testing

@Suite("Effect statics for effect middlewares")
struct EffectMiddlewareStaticsTests {
  @Test("doNothing finishes at once")
  func doNothing() {
    let recorder = Effect<Int, Never>.doNothing.record()
    #expect(recorder.values == [])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("just publishes one value, then finishes")
  func just() {
    let recorder = Effect<Int, Never>.just(4).record()
    #expect(recorder.values == [4])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("sequence publishes its values in order, honouring demand")
  func sequence() {
    let recorder = Effect<Int, Never>.sequence(1, 2, 3).record(initialDemand: .max(2))
    #expect(recorder.values == [1, 2])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
    #expect(Effect<Int, Never>.sequence([5, 6]).record().values == [5, 6])
  }

  @Test("promise publishes the value handed to completion, once per subscription")
  func promise() async {
    let runs = Counter()
    let effect = Effect<Int, Never>.promise { completion in
      runs.increment()
      DispatchQueue.global().async { completion(7) }
    }
    #expect(runs.count == 0)
    let recorder = effect.record()
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [7])
    #expect(runs.count == 1)
  }

  @Test("asEffect wraps a publisher without a token")
  func asEffect() {
    let effect = [1, 2].publisher.asEffect()
    #expect(effect.cancellationToken == nil)
    #expect(effect.record().values == [1, 2])
  }

  @Test("asEffect(cancellationToken:) records the token and runs like any publisher")
  func asEffectWithToken() {
    let effect = Just(1).asEffect(cancellationToken: "token")
    #expect(effect.cancellationToken == AnyHashable("token"))
    #expect(effect.record().values == [1])
  }
}
