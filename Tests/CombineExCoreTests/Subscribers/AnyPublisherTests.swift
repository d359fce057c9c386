import CombineExCore
import CombineExTesting
import Testing

@Suite("AnyPublisher")
struct AnyPublisherTests {
  @Test("forwards values, demand and the completion of the wrapped publisher")
  func forwards() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.eraseToAnyPublisher().record(initialDemand: .max(1))
    subject.send(1)
    subject.send(2)
    recorder.request(.max(1))
    subject.send(3)
    subject.send(completion: .failure(TestError(1)))
    #expect(recorder.values == [1, 3])
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("the initializer and eraseToAnyPublisher wrap the same way")
  func initializer() {
    let recorder = AnyPublisher(Just(5)).record()
    #expect(recorder.values == [5])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("cancel reaches the wrapped publisher and releases the subscriber")
  func cancellation() {
    expectCancellationRules { $0.eraseToAnyPublisher() }
  }

  @Test("the description and the playground description are \"AnyPublisher\"")
  func description() {
    let erased = Just(1).eraseToAnyPublisher()
    #expect(erased.description == "AnyPublisher")
    #expect(erased.playgroundDescription as? String == "AnyPublisher")
    #expect(String(describing: erased) == "AnyPublisher")
  }

  @Test("erasing an AnyPublisher again reuses its storage instead of wrapping it")
  func erasingTwiceReusesStorage() {
    let erased = PassthroughSubject<Int, Never>().eraseToAnyPublisher()
    let twice = erased.eraseToAnyPublisher()
    let rewrapped = AnyPublisher(erased)
    // The wrapped box is the publisher's only stored property; the same object means no new
    // layer was added.
    #expect(storage(of: twice) === storage(of: erased))
    #expect(storage(of: rewrapped) === storage(of: erased))
    #expect(storage(of: Just(1).eraseToAnyPublisher()) !== storage(of: erased))
  }

  /// The object an `AnyPublisher` stores, read through reflection.
  private func storage<Output, Failure>(of publisher: AnyPublisher<Output, Failure>) -> AnyObject? {
    Mirror(reflecting: publisher).children.first.map { $0.value as AnyObject }
  }
}
