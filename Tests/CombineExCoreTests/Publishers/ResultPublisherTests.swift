import CombineExCore
import CombineExTesting
import Testing

@Suite("Result.Publisher")
struct ResultPublisherTests {
  @Test("result.publisher is a Result.Publisher holding the result")
  func publisherProperty() {
    let result: Result<Int, TestError> = .success(1)
    let publisher: Result<Int, TestError>.Publisher = result.publisher
    #expect(publisher.result == .success(1))
    #expect(publisher == Result<Int, TestError>.Publisher(.success(1)))
  }

  @Test("a success delivers the value, then finishes")
  func success() {
    let recorder = Result<Int, TestError>.success(3).publisher.record()
    #expect(recorder.events == [.subscription, .value(3), .completion(.finished)])
  }

  @Test("a failure fails at once, without a value")
  func failure() {
    let recorder = Result<Int, TestError>.failure(TestError(2)).publisher.record()
    #expect(recorder.events == [.subscription, .completion(.failure(TestError(2)))])
  }

  @Test("the output and failure initializers build the matching result")
  func convenienceInitializers() {
    #expect(Result<Int, TestError>.Publisher(5).result == .success(5))
    #expect(Result<Int, TestError>.Publisher(TestError(6)).result == .failure(TestError(6)))
  }

  @Test("withholds the value until the subscriber requests demand")
  func waitsForDemand() {
    let recorder = Result<Int, TestError>.success(1).publisher.record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("a failure needs no demand")
  func failureNeedsNoDemand() {
    let recorder = Result<Int, TestError>.failure(TestError(1)).publisher
      .record(initialDemand: .none)
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("every subscriber receives the value")
  func everySubscriber() {
    let publisher = Result<String, TestError>.success("a").publisher
    #expect(publisher.record().values == ["a"])
    #expect(publisher.record().values == ["a"])
  }

  @Test("cancel before demand discards the value")
  func cancelBeforeDemand() {
    let recorder = Result<Int, TestError>.success(1).publisher.record(initialDemand: .none)
    recorder.cancel()
    recorder.request(.max(1))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("cancel releases the subscriber")
  func cancelReleases() {
    weak var weakOwner: TestOwner?
    var subscription: (any Subscription)?
    do {
      let owner = TestOwner()
      weakOwner = owner
      Result<Int, Never>.success(1).publisher.subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: { subscription = $0 },
          receiveValue: { value in
            owner.values.append(value)
            return .none
          }))
    }
    #expect(weakOwner != nil)
    subscription?.cancel()
    #expect(weakOwner == nil)
  }
}

@Suite("Optional.Publisher")
struct OptionalPublisherTests {
  @Test("optional.publisher is an Optional.Publisher holding the value")
  func publisherProperty() {
    let value: Int? = 1
    let publisher: Optional<Int>.Publisher = value.publisher
    #expect(publisher.output == 1)
    #expect(publisher == Optional<Int>.Publisher(1))
  }

  @Test("a value is delivered, then the publisher finishes")
  func someValue() {
    let recorder = Optional(4).publisher.record()
    #expect(recorder.events == [.subscription, .value(4), .completion(.finished)])
  }

  @Test("nil finishes at once, without a value or demand")
  func nilFinishes() {
    let recorder = Optional<Int>.none.publisher.record(initialDemand: .none)
    #expect(recorder.events == [.subscription, .completion(.finished)])
  }

  @Test("withholds the value until the subscriber requests demand")
  func waitsForDemand() {
    let recorder = Optional(2).publisher.record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [2])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("cancel before demand discards the value")
  func cancelBeforeDemand() {
    let recorder = Optional(2).publisher.record(initialDemand: .none)
    recorder.cancel()
    recorder.request(.max(1))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("cancel releases the subscriber")
  func cancelReleases() {
    weak var weakOwner: TestOwner?
    var subscription: (any Subscription)?
    do {
      let owner = TestOwner()
      weakOwner = owner
      Optional(1).publisher.subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: { subscription = $0 },
          receiveValue: { value in
            owner.values.append(value)
            return .none
          }))
    }
    #expect(weakOwner != nil)
    subscription?.cancel()
    #expect(weakOwner == nil)
  }
}
