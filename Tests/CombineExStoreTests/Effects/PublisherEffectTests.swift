import CombineExStore
import CombineExTesting
import Testing

@Suite("Publisher to Effect")
struct PublisherEffectTests {
  @Test("eraseToEffect wraps a publisher")
  func eraseToEffect() {
    let effect: Effect<Int, Never> = [1, 2].publisher.eraseToEffect()
    #expect(effect.record().values == [1, 2])
  }

  @Test("eraseToEffect(_:) transforms the values")
  func eraseToEffectTransform() {
    let effect: Effect<Add, Never> = [1, 2].publisher.eraseToEffect(Add.init(amount:))
    #expect(effect.record().values == [Add(amount: 1), Add(amount: 2)])
  }

  @Test("catchToEffect turns values into successes and the failure into a value, then finishes")
  func catchToEffect() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.catchToEffect().record()
    subject.send(1)
    subject.send(completion: .failure(TestError(2)))
    #expect(recorder.values == [.success(1), .failure(TestError(2))])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("catchToEffect(_:) transforms the results")
  func catchToEffectTransform() {
    let recorder = Fail<Int, TestError>(error: TestError(1))
      .catchToEffect { result -> String in
        switch result {
        case .success(let value): "value \(value)"
        case .failure(let error): "error \(error.id)"
        }
      }
      .record()
    #expect(recorder.values == ["error 1"])
  }

  @Test("fireAndForget() runs the publisher, publishes nothing and ignores its failure")
  func fireAndForget() {
    let received = Counter()
    let subject = PassthroughSubject<Int, TestError>()
    let recorder: TestSubscriber<String, Never> =
      subject
      .handleEvents(receiveOutput: { _ in received.increment() })
      .fireAndForget()
      .record()
    subject.send(1)
    subject.send(2)
    #expect(received.count == 2)
    #expect(recorder.values == [])
    subject.send(completion: .failure(TestError(1)))
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("fireAndForget() finishes when the publisher finishes")
  func fireAndForgetFinishes() {
    let recorder = Just(1).fireAndForget(outputType: Int.self, failureType: TestError.self)
      .record()
    #expect(recorder.values == [])
    #expect(recorder.receivedCompletion == .finished)
  }
}
