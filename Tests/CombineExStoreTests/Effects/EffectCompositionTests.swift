import CombineExStore
import CombineExTesting
import Testing

@Suite("Effect: map, merge, concatenate")
struct EffectCompositionTests {
  @Test("map transforms each value and returns an effect")
  func map() {
    let effect: Effect<String, Never> = Effect([1, 2].publisher).map { "#\($0)" }
    let recorder = effect.record()
    #expect(recorder.values == ["#1", "#2"])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("map passes the failure through and keeps the token")
  func mapFailureAndToken() {
    let effect = Fail<Int, TestError>(error: TestError(1)).asEffect(cancellationToken: 5)
      .map { $0 + 1 }
    #expect(effect.cancellationToken == AnyHashable(5))
    #expect(effect.record().receivedCompletion == .failure(TestError(1)))
  }

  @Test("merge publishes the values of all effects as they come, and finishes after all")
  func merge() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let recorder = Effect.merge(Effect(first), Effect(second), Effect(value: 0)).record()
    first.send(1)
    second.send(2)
    first.send(completion: .finished)
    #expect(recorder.receivedCompletion == nil)
    second.send(completion: .finished)
    #expect(recorder.values == [0, 1, 2])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("merge fails as soon as one effect fails, and cancels the others")
  func mergeFailure() {
    let cancels = Counter()
    let pending = PassthroughSubject<Int, TestError>()
    let recorder = Effect.merge(
      Effect(pending.handleEvents(receiveCancel: { cancels.increment() })),
      Effect(error: TestError(3))
    ).record()
    #expect(recorder.receivedCompletion == .failure(TestError(3)))
    #expect(cancels.count == 1)
  }

  @Test("merge of a sequence, of one effect, and of nothing")
  func mergeSequence() {
    #expect(
      Effect.merge([Effect<Int, Never>(value: 1), Effect(value: 2)]).record().values == [1, 2])
    #expect(Effect.merge([Effect<Int, Never>(value: 1)]).record().values == [1])
    let empty = Effect<Int, Never>.merge([Effect<Int, Never>]()).record()
    #expect(empty.receivedCompletion == .finished)
  }

  @Test("merge honours demand")
  func mergeDemand() {
    let recorder = Effect.merge(Effect([1, 2].publisher), Effect([3].publisher))
      .record(initialDemand: .max(1))
    #expect(recorder.values.count == 1)
    recorder.request(.unlimited)
    #expect(recorder.values.sorted() == [1, 2, 3])
  }

  @Test("cancelling a merged effect cancels every effect in it")
  func mergeCancel() {
    let cancels = Counter()
    let subject = PassthroughSubject<Int, Never>()
    let probe = Effect(subject.handleEvents(receiveCancel: { cancels.increment() }))
    let recorder = Effect.merge(probe, probe).record()
    recorder.cancel()
    #expect(cancels.count == 2)
  }

  @Test("concatenate runs the effects one after another")
  func concatenate() {
    let first = PassthroughSubject<Int, Never>()
    let secondRuns = Counter()
    let second = Effect<Int, Never>.result {
      secondRuns.increment()
      return .success(2)
    }
    let recorder = Effect.concatenate(Effect(first), second, Effect(value: 3)).record()
    first.send(1)
    #expect(secondRuns.count == 0)
    first.send(completion: .finished)
    #expect(secondRuns.count == 1)
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("concatenate stops at the first failure")
  func concatenateFailure() {
    let runs = Counter()
    let recorder = Effect.concatenate(
      Effect<Int, TestError>(value: 1),
      Effect(error: TestError(1)),
      .fireAndForget { runs.increment() }
    ).record()
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
    #expect(runs.count == 0)
  }

  @Test("concatenate of a collection and of nothing")
  func concatenateCollection() {
    let effects = [Effect<Int, Never>(value: 1), .none, Effect(value: 2)]
    #expect(Effect.concatenate(effects).record().values == [1, 2])
    #expect(
      Effect<Int, Never>.concatenate([Effect<Int, Never>]()).record().receivedCompletion
        == .finished)
  }

  @Test("concatenate honours demand across effects")
  func concatenateDemand() {
    let recorder = Effect.concatenate(Effect([1, 2].publisher), Effect([3].publisher))
      .record(initialDemand: .max(2))
    #expect(recorder.values == [1, 2])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
  }
}
