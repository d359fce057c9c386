import CombineEx
import CombineExTesting
import Foundation
import Testing

/// The original CombineEx's `Deferred<…>`-returning operators: chosen only where the caller
/// names the type, and cold (each subscription builds its own wrapped publisher and chain).
@Suite("Deferred-returning operators of the original CombineEx")
struct DeferredLiftedOperatorsTests {
  @Test("Combine's form wins when the type is not named")
  func combineFormByDefault() {
    let mapped = Deferred { Just(1) }.map { $0 + 1 }
    #expect(type(of: mapped) == Publishers.Map<Deferred<Just<Int>>, Int>.self)
  }

  @Test("naming the Deferred type picks the lifted form, which builds a chain per subscription")
  func liftedFormWhenNamed() {
    let counter = RunCounter()
    let mapped: Deferred<Publishers.Map<Just<Int>, Int>> = Deferred {
      Just(counter.increment())
    }.map { $0 * 10 }
    #expect(counter.value == 0)
    #expect(mapped.record().values == [10])
    #expect(mapped.record().values == [20])
    #expect(counter.value == 2)
  }

  @Test("AnyDeferredPublisher's lifted form wraps a new AnyPublisher per subscription")
  func anyDeferredLifted() {
    let counter = RunCounter()
    let source = AnyDeferredPublisher<Int, Never> { Just(counter.increment()) }
    let scanned: Deferred<Publishers.Scan<AnyPublisher<Int, Never>, Int>> =
      source.scan(100) { $0 + $1 }
    #expect(scanned.record().values == [101])
    #expect(scanned.record().values == [102])
  }

  @Test("every lifted form is declared with the original's result type")
  func resultTypes() {
    let ints = Deferred { [1, 2, 3].publisher }
    let failing = Deferred { Fail<Int, ColdTestError>(error: ColdTestError(1)) }
    let scheduler = DispatchQueue.main
    let _: Deferred<Publishers.TryMap<Publishers.Sequence<[Int], Never>, Int>> = ints.tryMap { $0 }
    let _: Deferred<Publishers.MapError<Fail<Int, ColdTestError>, ColdTestError>> =
      failing.mapError { $0 }
    let _: Deferred<Publishers.Map<Just<Int?>, Int>> = Deferred { Just(Int?.none) }
      .replaceNil(with: 0)
    let _: Deferred<Publishers.TryScan<Publishers.Sequence<[Int], Never>, Int>> =
      ints.tryScan(0) { $0 + $1 }
    let _: Deferred<Publishers.SetFailureType<Publishers.Sequence<[Int], Never>, ColdTestError>> =
      ints.setFailureType(to: ColdTestError.self)
    let _: Deferred<Publishers.FlatMap<Just<Int>, Publishers.Sequence<[Int], Never>>> =
      ints.flatMap { Just($0) }
    let _:
      Deferred<
        Publishers.FlatMap<
          Fail<Int, ColdTestError>,
          Publishers.SetFailureType<Publishers.Sequence<[Int], Never>, ColdTestError>
        >
      > =
        ints.flatMap { _ in Fail<Int, ColdTestError>(error: ColdTestError(1)) }
    let _:
      Deferred<
        Publishers.FlatMap<
          Publishers.SetFailureType<Just<Int>, ColdTestError>, Fail<Int, ColdTestError>
        >
      > =
        failing.flatMap { Just($0) }
    let nested = Deferred { Just(Just(1)) }
    let _: Deferred<Publishers.SwitchToLatest<Just<Int>, Just<Just<Int>>>> = nested.switchToLatest()
    let _: Deferred<Publishers.Encode<Publishers.Sequence<[Int], Never>, JSONEncoder>> =
      ints.encode(encoder: JSONEncoder())
    let _: Deferred<Publishers.Decode<Just<Data>, Int, JSONDecoder>> = Deferred { Just(Data()) }
      .decode(type: Int.self, decoder: JSONDecoder())
    let _: Deferred<Publishers.Catch<Fail<Int, ColdTestError>, Just<Int>>> =
      failing.catch { _ in Just(0) }
    let _: Deferred<Publishers.MeasureInterval<Publishers.Sequence<[Int], Never>, DispatchQueue>> =
      ints.measureInterval(using: scheduler)
    let _: Deferred<Publishers.Debounce<Publishers.Sequence<[Int], Never>, DispatchQueue>> =
      ints.debounce(for: .seconds(1), scheduler: scheduler)
    let _: Deferred<Publishers.Delay<Publishers.Sequence<[Int], Never>, DispatchQueue>> =
      ints.delay(for: .seconds(1), scheduler: scheduler)
    let _: Deferred<Publishers.Throttle<Publishers.Sequence<[Int], Never>, DispatchQueue>> =
      ints.throttle(for: .seconds(1), scheduler: scheduler, latest: true)
    let _: Deferred<Publishers.Timeout<Publishers.Sequence<[Int], Never>, DispatchQueue>> =
      ints.timeout(.seconds(1), scheduler: scheduler)
    let _: Deferred<Publishers.SubscribeOn<Publishers.Sequence<[Int], Never>, DispatchQueue>> =
      ints.subscribe(on: scheduler)
    let _: Deferred<Publishers.ReceiveOn<Publishers.Sequence<[Int], Never>, DispatchQueue>> =
      ints.receive(on: scheduler)
    let _: Deferred<Publishers.ReceiveOn<Publishers.Sequence<[Int], Never>, UIScheduler>> =
      ints.receiveOnMain()
    let _: Deferred<Publishers.ReceiveOn<Publishers.Sequence<[Int], Never>, DispatchQueue>> =
      ints.receiveOnMainAsync()
    let _: Deferred<Publishers.ReceiveOn<Publishers.Sequence<[Int], Never>, RunLoop>> =
      ints.receiveOnMainRunLoop()
    let handled: Deferred<Publishers.HandleEvents<Publishers.Sequence<[Int], Never>>> =
      ints.handleEvents()
    #expect(handled.record().values == [1, 2, 3])
  }

  @Test("a lifted chain cancelled before its value delivers nothing and can be subscribed again")
  func cancelThenResubscribe() {
    let subject = PassthroughSubject<Int, Never>()
    let mapped: Deferred<Publishers.Map<PassthroughSubject<Int, Never>, String>> =
      Deferred { subject }.map { "\($0)" }
    let first = mapped.record()
    first.cancel()
    subject.send(1)
    #expect(first.values == [])
    let second = mapped.record()
    subject.send(2)
    #expect(second.values == ["2"])
  }
}
