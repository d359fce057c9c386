import CombineEx
import CombineExTesting
import Testing

@Suite("AnyDeferredPublisher")
struct AnyDeferredPublisherTests {
  @Test("the factory runs once per subscription, never before one")
  func factoryPerSubscription() {
    let counter = RunCounter()
    let publisher = AnyDeferredPublisher<Int, Never> {
      Just(counter.increment())
    }
    #expect(counter.value == 0)
    let first = publisher.record()
    let second = publisher.record()
    #expect(counter.value == 2)
    #expect(first.values == [1])
    #expect(second.values == [2])
    #expect(first.receivedCompletion == .finished)
  }

  @Test("a multi-statement factory infers its publisher type")
  func multiStatementFactory() {
    let counter = RunCounter()
    let publisher = AnyDeferredPublisher<String, Never> {
      let run = counter.increment()
      return ["run", "\(run)"].publisher
    }
    #expect(publisher.record().values == ["run", "1"])
  }

  @Test("just gives each subscriber the value on demand, then finishes")
  func justHonoursDemand() {
    let publisher = AnyDeferredPublisher<Int, ColdTestError>.just(7)
    let recorder = publisher.record(initialDemand: .none)
    #expect(recorder.values == [])
    recorder.request(.max(1))
    #expect(recorder.values == [7])
    #expect(recorder.receivedCompletion == .finished)
    #expect(publisher.record().values == [7])
  }

  @Test("fail fails each subscriber at once")
  func failFails() {
    let publisher = AnyDeferredPublisher<Int, ColdTestError>.fail(ColdTestError(3))
    let recorder = publisher.record(initialDemand: .none)
    #expect(recorder.values == [])
    #expect(recorder.receivedCompletion == .failure(ColdTestError(3)))
  }

  @Test("empty finishes each subscriber at once, without values")
  func emptyFinishes() {
    let recorder = AnyDeferredPublisher<Int, Never>.empty().record(initialDemand: .none)
    #expect(recorder.values == [])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("a factory's failure reaches the subscriber")
  func factoryFailure() {
    let publisher = AnyDeferredPublisher<Int, ColdTestError> {
      [1, 2].publisher.setFailureType(to: ColdTestError.self)
        .append(Fail(error: ColdTestError(5)))
    }
    let recorder = publisher.record()
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .failure(ColdTestError(5)))
  }

  @Test("demand passes through: .max(1), then more")
  func demandPassesThrough() {
    let publisher = AnyDeferredPublisher<Int, Never> { [1, 2, 3].publisher }
    let recorder = publisher.record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    recorder.request(.unlimited)
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("cancel reaches the run's publisher and nothing arrives after it")
  func cancelReachesRun() {
    let subject = PassthroughSubject<Int, Never>()
    var cancels = 0
    let publisher = AnyDeferredPublisher<Int, Never> {
      subject.handleEvents(receiveCancel: { cancels += 1 })
    }
    let recorder = publisher.record()
    subject.send(1)
    recorder.cancel()
    subject.send(2)
    #expect(cancels == 1)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("a cancelled subscription frees the run")
  func cancelFreesRun() {
    weak var weakOwner: TestOwnerObject?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwnerObject()
      weakOwner = owner
      let publisher = AnyDeferredPublisher<Int, Never> {
        subject.map { value -> Int in
          owner.values.append(value)
          return value
        }
      }
      cancellable = publisher.sink { _ in }
    }
    subject.send(1)
    #expect(weakOwner?.values == [1])
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("erasing again keeps one run per subscription")
  func erasingAgain() {
    let counter = RunCounter()
    let once = countingDeferred([1], counter: counter).eraseToAnyDeferredPublisher()
    let twice = once.eraseToAnyDeferredPublisher().eraseToAnyDeferredPublisher()
    #expect(twice.record().values == [1])
    #expect(counter.value == 1)
    #expect(AnyDeferredPublisher(twice).record().values == [1])
    #expect(counter.value == 2)
  }

  @Test("Deferred erases to AnyDeferredPublisher, staying cold")
  func deferredErases() {
    let counter = RunCounter()
    let publisher: AnyDeferredPublisher<Int, Never> = countingDeferred([4, 5], counter: counter)
      .eraseToAnyDeferredPublisher()
    #expect(counter.value == 0)
    #expect(publisher.record().values == [4, 5])
    #expect(publisher.record().values == [4, 5])
    #expect(counter.value == 2)
  }

  @Test("its description is AnyDeferredPublisher")
  func description() {
    #expect(AnyDeferredPublisher<Int, Never>.empty().description == "AnyDeferredPublisher")
  }
}
