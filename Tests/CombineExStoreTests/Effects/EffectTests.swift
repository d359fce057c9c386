import CombineExStore
import CombineExTesting
import Foundation
import Testing

@Suite("Effect: constructors")
struct EffectTests {
  @Test("none finishes at once without values")
  func none() {
    let recorder = Effect<Int, TestError>.none.record()
    #expect(recorder.values == [])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("init(_:) wraps a publisher: its values, completion and demand")
  func wrapsPublisher() {
    let recorder = Effect([1, 2, 3].publisher).record(initialDemand: .max(2))
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("init(_:) passes the upstream's failure through")
  func wrapsFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = Effect(subject).record()
    subject.send(1)
    subject.send(completion: .failure(TestError(2)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(TestError(2)))
  }

  @Test("cancelling an effect cancels the wrapped publisher")
  func cancelReachesUpstream() {
    let cancels = Counter()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = Effect(subject.handleEvents(receiveCancel: { cancels.increment() })).record()
    recorder.cancel()
    subject.send(1)
    #expect(cancels.count == 1)
    #expect(recorder.values == [])
  }

  @Test("init(_:) of an effect keeps that effect (and its token)")
  func wrapsEffect() {
    let inner = Just(1).asEffect(cancellationToken: "token")
    let outer = Effect(inner)
    #expect(outer.cancellationToken == AnyHashable("token"))
    #expect(outer.record().values == [1])
  }

  @Test("init(value:) publishes the value, then finishes")
  func value() {
    let recorder = Effect<String, TestError>(value: "hi").record()
    #expect(recorder.values == ["hi"])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("init(value:) waits for demand")
  func valueDemand() {
    let recorder = Effect<Int, Never>(value: 1).record(initialDemand: .none)
    #expect(recorder.values == [])
    recorder.request(.max(1))
    #expect(recorder.values == [1])
  }

  @Test("init(error:) fails at once")
  func error() {
    let recorder = Effect<Int, TestError>(error: TestError(5)).record(initialDemand: .none)
    #expect(recorder.receivedCompletion == .failure(TestError(5)))
  }

  @Test("future runs its work once per subscription, never at creation")
  func futureIsCold() {
    let runs = Counter()
    let effect = Effect<Int, Never>.future { promise in
      runs.increment()
      promise(.success(runs.count))
    }
    #expect(runs.count == 0)
    #expect(effect.record().values == [1])
    #expect(effect.record().values == [2])
  }

  @Test("future delivers a value fulfilled later, from another thread")
  func futureLater() async {
    let effect = Effect<Int, Never>.future { promise in
      DispatchQueue.global().async { promise(.success(42)) }
    }
    let recorder = effect.record()
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [42])
  }

  @Test("future fails with the promised failure")
  func futureFailure() {
    let recorder = Effect<Int, TestError>.future { $0(.failure(TestError(1))) }.record()
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("result computes its result once per subscription")
  func result() {
    let runs = Counter()
    let effect = Effect<Int, TestError>.result {
      runs.increment()
      return runs.count == 1 ? .success(10) : .failure(TestError(runs.count))
    }
    #expect(runs.count == 0)
    #expect(effect.record().values == [10])
    #expect(effect.record().receivedCompletion == .failure(TestError(2)))
  }

  @Test("fireAndForget runs its work per subscription, publishes nothing and finishes")
  func fireAndForget() {
    let runs = Counter()
    let effect = Effect<Int, Never>.fireAndForget { runs.increment() }
    #expect(runs.count == 0)
    let recorder = effect.record()
    #expect(runs.count == 1)
    #expect(recorder.values == [])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("fireAndForget ignores a thrown error and still finishes")
  func fireAndForgetThrows() {
    let recorder = Effect<Int, TestError>.fireAndForget { throw TestError(1) }.record()
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("async fireAndForget runs its work in a task, then finishes")
  func fireAndForgetAsync() async {
    let runs = Counter()
    let recorder = Effect<Int, Never>.fireAndForget(priority: .medium) {
      await Task.yield()
      runs.increment()
    }.record()
    #expect(await recorder.completion == .finished)
    #expect(runs.count == 1)
    #expect(recorder.values == [])
  }

  @Test("async fireAndForget ignores a thrown error and still finishes")
  func fireAndForgetAsyncThrows() async {
    let recorder = Effect<Int, Never>.fireAndForget { () async throws in throw TestError(1) }
      .record()
    #expect(await recorder.completion == .finished)
  }

  @Test("catching publishes the returned value")
  func catchingValue() {
    let recorder = Effect.catching { 7 }.record()
    #expect(recorder.values == [7])
    #expect(recorder.receivedCompletion?.isFinished == true)
  }

  @Test("catching fails with the thrown error, once per subscription")
  func catchingError() {
    let runs = Counter()
    let effect = Effect<Int, any Error>.catching {
      runs.increment()
      throw TestError(4)
    }
    #expect(runs.count == 0)
    let recorder = effect.record()
    #expect(runs.count == 1)
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(4))
  }
}

extension Subscribers.Completion {
  /// Whether this is `.finished`.
  var isFinished: Bool {
    if case .finished = self { return true }
    return false
  }

  /// The failure, if any.
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
