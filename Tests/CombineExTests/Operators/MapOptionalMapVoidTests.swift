import CombineEx
import CombineExTesting
import Testing

@Suite("mapOptional and mapVoid")
struct MapOptionalMapVoidTests {
  @Test("mapOptional wraps every value and returns Publishers.Map")
  func mapOptional() {
    let mapped = [1, 2].publisher.mapOptional()
    #expect(type(of: mapped) == Publishers.Map<Publishers.Sequence<[Int], Never>, Int?>.self)
    #expect(mapped.record().values == [1, 2])
  }

  @Test("mapVoid replaces every value with () and keeps demand and completion")
  func mapVoid() {
    let subject = PassthroughSubject<Int, ColdTestError>()
    let mapped = subject.mapVoid()
    #expect(type(of: mapped) == Publishers.Map<PassthroughSubject<Int, ColdTestError>, Void>.self)
    let recorder = mapped.record(initialDemand: .max(1))
    subject.send(1)
    subject.send(2)
    subject.send(completion: .failure(ColdTestError(1)))
    #expect(recorder.values.count == 1)
    #expect(recorder.receivedCompletion == .failure(ColdTestError(1)))
  }

  @Test("on futures they return DeferredFutures where one is needed, and stay cold")
  func futures() {
    let runs = RunCounter()
    let future = DeferredFuture<Int, Never> { promise in
      runs.increment()
      promise(.success(4))
    }
    let optional: DeferredFuture<Int?, Never> = future.mapOptional()
    let void: DeferredFuture<Void, Never> = future.mapVoid()
    #expect(runs.value == 0)
    #expect(optional.record().values == [4])
    #expect(void.record().values.count == 1)
    #expect(runs.value == 2)
    // Without a type context the Publisher forms are chosen (the future forms are disfavoured).
    #expect(type(of: future.mapVoid()) == Publishers.Map<DeferredFuture<Int, Never>, Void>.self)
  }

  @Test("on cold publishers they stay cold")
  func coldness() {
    let runs = RunCounter()
    let erased: AnyDeferredPublisher<Void, Never> = countingDeferred([1, 2], counter: runs)
      .mapVoid().eraseToAnyDeferredPublisher()
    let optional: AnyDeferredPublisher<Int?, Never> = countingDeferred([3], counter: runs)
      .mapOptional().eraseToAnyDeferredPublisher()
    #expect(erased.record().values.count == 2)
    #expect(optional.record().values == [3])
    #expect(runs.value == 2)
  }
}
