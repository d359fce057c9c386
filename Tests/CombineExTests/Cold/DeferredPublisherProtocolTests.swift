import CombineEx
import CombineExTesting
import Testing

/// The original CombineEx's names for cold publishers: `DeferredPublisherProtocol`,
/// `createPublisher`, `deferredLift`, `AnyDeferredPublisher(createPublisher:)`.
@Suite("DeferredPublisherProtocol and the original's cold-publisher names")
struct DeferredPublisherProtocolTests {
  func evens(counter: RunCounter) -> some DeferredPublisherProtocol<Int, Never> {
    countingDeferred([1, 2, 3, 4], counter: counter).filter { $0.isMultiple(of: 2) }
  }

  func erase<P: DeferredPublisherProtocol>(_ publisher: P) -> AnyDeferredPublisher<
    P.Output, P.Failure
  > {
    publisher.eraseToAnyDeferredPublisher()
  }

  @Test("some DeferredPublisherProtocol<O, F> is a return type that a chain of cold operators fits")
  func opaqueReturnType() {
    let counter = RunCounter()
    let publisher = evens(counter: counter)
    #expect(counter.value == 0)
    #expect(publisher.record().values == [2, 4])
    #expect(publisher.record().values == [2, 4])
    #expect(counter.value == 2)
  }

  @Test("DeferredPublisherProtocol constrains generic code to cold publishers")
  func genericConstraint() {
    let counter = RunCounter()
    let erased = erase(countingDeferred([1], counter: counter).map { $0 * 2 })
    #expect(erased.record().values == [2])
    #expect(counter.value == 1)
    let futureErased = erase(DeferredFuture<Int, Never>.just(3))
    #expect(futureErased.record().values == [3])
  }

  @Test("a DeferredFutureProtocol is a DeferredPublisherProtocol")
  func futuresAreDeferredPublishers() {
    func values<F: DeferredFutureProtocol>(_ future: F) -> AnyDeferredPublisher<F.Output, F.Failure>
    {
      future.eraseToAnyDeferredPublisher()
    }
    #expect(values(AnyDeferredFuture<Int, Never>.just(1)).record().values == [1])
  }

  @Test("AnyDeferredPublisher(createPublisher:) calls its closure once per subscription")
  func createPublisherInitializer() {
    let counter = RunCounter()
    let publisher = AnyDeferredPublisher<Int, Never>(createPublisher: {
      Just(counter.increment()).eraseToAnyPublisher()
    })
    #expect(counter.value == 0)
    #expect(publisher.record().values == [1])
    #expect(publisher.record().values == [2])
  }

  @Test("AnyDeferredPublisher's createPublisher makes a new run each time it is subscribed")
  func anyDeferredPublisherCreatePublisher() {
    let counter = RunCounter()
    let publisher = AnyDeferredPublisher(countingDeferred([5], counter: counter))
    let made = publisher.createPublisher()
    #expect(type(of: made) == AnyPublisher<Int, Never>.self)
    #expect(made.record().values == [5])
    #expect(made.record().values == [5])
    #expect(counter.value == 2)
  }

  @Test("Deferred keeps its own createPublisher; other cold publishers return themselves")
  func createPublisherOfOthers() {
    let deferred = Deferred { Just(1) }
    #expect(type(of: deferred.createPublisher()) == Just<Int>.self)
    let mapped = Deferred { Just(2) }.map { $0 + 1 }
    #expect(
      type(of: mapped.createPublisher()) == Publishers.Map<Deferred<Just<Int>>, Int>.self)
    #expect(mapped.createPublisher().record().values == [3])
  }

  @Test("deferredLift builds the transformed publisher per subscription")
  func deferredLift() {
    let builds = RunCounter()
    let lifted = Just(21).deferredLift { just -> Publishers.Map<Just<Int>, Int> in
      builds.increment()
      return just.map { $0 * 2 }
    }
    #expect(type(of: lifted) == Deferred<Publishers.Map<Just<Int>, Int>>.self)
    #expect(builds.value == 0)
    #expect(lifted.record().values == [42])
    #expect(lifted.record().values == [42])
    #expect(builds.value == 2)
  }

  @Test("the original's compile checks: setFailureType and stacked maps on Deferred erase cold")
  func originalCompileChecks() {
    let typed: AnyDeferredPublisher<Int, ColdTestError> = Deferred { Just(1) }
      .setFailureType(to: ColdTestError.self)
      .eraseToAnyDeferredPublisher()
    let stacked = Deferred { Just(1).setFailureType(to: ColdTestError.self) }
      .map { $0 + 1 }.map { $0 + 1 }.map { $0 + 1 }.map { $0 + 1 }.map { $0 + 1 }.map { $0 + 1 }
      .eraseToAnyDeferredPublisher()
    #expect(typed.record().values == [1])
    #expect(stacked.record().values == [7])
  }
}
