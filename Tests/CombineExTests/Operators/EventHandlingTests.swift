import CombineEx
import CombineExTesting
import Testing

@Suite("the handle… family")
struct EventHandlingTests {
  @Test("each handler sees only its own event, before the event moves on")
  func eachHandlerItsEvent() {
    let log = EventLog()
    let subject = PassthroughSubject<Int, ColdTestError>()
    let recorder =
      subject
      .handleSubscription { log.append("subscription") }
      .handleValue { log.append("value \($0)") }
      .handleError { log.append("error \($0.id)") }
      .handleFinished { log.append("finished") }
      .handleCompletion { log.append("completion \($0)") }
      .handleCancel { log.append("cancel") }
      .handleValue { _ in log.append("downstream") }
      .record()
    subject.send(1)
    subject.send(completion: .failure(ColdTestError(4)))
    #expect(
      log.values == [
        "subscription", "value 1", "downstream", "error 4",
        "completion failure(ColdTestError(4))",
      ])
    #expect(recorder.values == [1])
  }

  @Test("handleFinished runs on .finished only; handleError not at all")
  func finished() {
    let log = EventLog()
    _ = Just(1).setFailureType(to: ColdTestError.self)
      .handleError { _ in log.append("error") }
      .handleFinished { log.append("finished") }
      .record()
    #expect(log.values == ["finished"])
  }

  @Test("handleCancel runs when the subscriber cancels, and the cancel reaches the upstream")
  func cancel() {
    let log = EventLog()
    let probe = SubscriptionProbe(PassthroughSubject<Int, Never>())
    let recorder = probe.publisher.handleCancel { log.append("cancel") }.record()
    recorder.cancel()
    #expect(log.values == ["cancel"])
    #expect(probe.cancels == 1)
  }

  @Test("every handler is optional: without one the publisher passes events through")
  func optionalHandlers() {
    let recorder = [1, 2].publisher
      .handleSubscription().handleValue().handleError().handleFinished().handleCompletion()
      .handleCancel()
      .record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("each returns Publishers.HandleEvents, cold on a cold upstream")
  func typesAndColdness() {
    let subject = PassthroughSubject<Int, Never>()
    typealias Handled = Publishers.HandleEvents<PassthroughSubject<Int, Never>>
    #expect(type(of: subject.handleSubscription {}) == Handled.self)
    #expect(type(of: subject.handleValue { _ in }) == Handled.self)
    #expect(type(of: subject.handleError { _ in }) == Handled.self)
    #expect(type(of: subject.handleFinished {}) == Handled.self)
    #expect(type(of: subject.handleCompletion { _ in }) == Handled.self)
    #expect(type(of: subject.handleCancel {}) == Handled.self)
    let runs = RunCounter()
    let erased: AnyDeferredPublisher<Int, Never> = countingDeferred([1], counter: runs)
      .handleValue { _ in }.handleFinished {}.eraseToAnyDeferredPublisher()
    #expect(erased.record().values == [1])
    #expect(erased.record().values == [1])
    #expect(runs.value == 2)
  }
}

@Suite("the handle…OnMainActor family", .serialized)
struct EventHandlingOnMainActorTests {
  @Test("handlers run on the main queue, after their events, in order")
  func runOnMainInOrder() async {
    let log = EventLog()
    let subject = PassthroughSubject<Int, ColdTestError>()
    let recorder =
      subject
      .handleSubscriptionOnMainActor { log.append("subscription main=\(MainQueue.isCurrent)") }
      .handleValueOnMainActor { log.append("value \($0) main=\(MainQueue.isCurrent)") }
      .handleCompletionOnMainActor { _ in log.append("completion main=\(MainQueue.isCurrent)") }
      .handleErrorOnMainActor { log.append("error \($0.id) main=\(MainQueue.isCurrent)") }
      .handleFinishedOnMainActor { log.append("finished") }
      .record()
    subject.send(1)
    subject.send(2)
    subject.send(completion: .failure(ColdTestError(3)))
    #expect(recorder.values == [1, 2])
    await MainQueue.drain()
    #expect(
      log.values == [
        "subscription main=true", "value 1 main=true", "value 2 main=true",
        "completion main=true", "error 3 main=true",
      ])
  }

  @Test("the event moves on at once; the handler runs later, on the main queue")
  func asynchronous() async {
    let log = EventLog()
    let recorder = Just(1)
      .handleValueOnMainActor { _ in log.append("handler") }
      .handleFinishedOnMainActor { log.append("finished") }
      .handleCancelOnMainActor { log.append("cancel") }
      .record()
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .finished)
    await MainQueue.drain()
    #expect(log.values == ["handler", "finished"])
  }

  @Test("handleCancelOnMainActor runs after a cancel; nil handlers pass events through")
  func cancelAndNilHandlers() async {
    let log = EventLog()
    let subject = PassthroughSubject<Int, Never>()
    let recorder =
      subject
      .handleSubscriptionOnMainActor().handleValueOnMainActor().handleErrorOnMainActor()
      .handleFinishedOnMainActor().handleCompletionOnMainActor()
      .handleCancelOnMainActor { log.append("cancel main=\(MainQueue.isCurrent)") }
      .record()
    subject.send(1)
    recorder.cancel()
    await MainQueue.drain()
    #expect(recorder.values == [1])
    #expect(log.values == ["cancel main=true"])
    #expect(
      type(of: subject.handleValueOnMainActor { _ in })
        == Publishers.HandleEvents<PassthroughSubject<Int, Never>>.self)
  }
}
