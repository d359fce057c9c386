import CombineEx
import CombineExTesting
import Foundation
import Testing

@Suite("action <~ publisher")
struct ActionBindingTests {
  @Test("each value applies the action; the runs' values reach values, without a cancellable")
  func eachValueApplies() {
    let action = Action<Int, Int, Never> { .just($0 * 10) }
    let values = action.values.record()
    let source = PassthroughSubject<Int, Never>()
    action <~ source
    source.send(1)
    source.send(2)
    #expect(values.values == [10, 20])
  }

  @Test("a value that comes while a run is in flight is refused and goes to disabledErrors")
  func busyValueIsRefused() {
    let (action, log) = controlledAction()
    let refused = action.disabledErrors.record()
    let source = PassthroughSubject<Int, Never>()
    action <~ source
    source.send(1)
    source.send(2)
    #expect(log.inputs == [1])
    #expect(refused.values.count == 1)
    log.current.send(completion: .finished)
    source.send(3)
    #expect(log.inputs == [1, 3])
  }

  @Test("a run started by the binding lasts until it ends: failures reach errors")
  func runsLastUntilTheyEnd() {
    let (action, log) = controlledAction()
    let values = action.values.record()
    let errors = action.errors.record()
    let source = PassthroughSubject<Int, Never>()
    action <~ source
    source.send(1)
    log.current.send(5)
    log.current.send(6)
    log.current.send(completion: .failure(ColdTestError(2)))
    #expect(values.values == [5, 6])
    #expect(errors.values == [ColdTestError(2)])
    #expect(!action.isExecuting.value)
  }

  @Test("a property source applies its current value at once, then each change")
  func propertySource() {
    let action = Action<String, String, Never> { .just($0.uppercased()) }
    let values = action.values.record()
    let query = MutableProperty("a")
    action <~ query
    query.value = "b"
    #expect(values.values == ["A", "B"])
  }

  @Test("the binding ends when the source finishes; a run in flight goes on")
  func endsWithSource() {
    let (action, log) = controlledAction()
    let values = action.values.record()
    let source = PassthroughSubject<Int, Never>()
    action <~ source
    source.send(1)
    source.send(completion: .finished)
    log.current.send(9)
    log.current.send(completion: .finished)
    source.send(2)
    #expect(values.values == [9])
    #expect(log.inputs == [1])
  }

  @Test("a failing source ends the binding")
  func failingSourceEnds() {
    let action = Action<Int, Int, Never> { .just($0) }
    let values = action.values.record()
    let source = PassthroughSubject<Int, ColdTestError>()
    action <~ source
    source.send(1)
    source.send(completion: .failure(ColdTestError()))
    source.send(2)
    #expect(values.values == [1])
  }

  @Test("the binding does not keep the action alive; freeing the action releases the source")
  func doesNotRetainAction() {
    weak var weakAction: Action<Int, Int, Never>?
    weak var weakSource: PassthroughSubject<Int, Never>?
    let cancels = RunCounter()
    do {
      let source = PassthroughSubject<Int, Never>()
      weakSource = source
      let action = Action<Int, Int, Never> { .just($0) }
      weakAction = action
      action <~ source.handleEvents(receiveCancel: { cancels.increment() })
      source.send(1)
    }
    #expect(weakAction == nil)
    #expect(cancels.value == 1)
    #expect(weakSource == nil)
  }

  @Test("a source that outlives the action stops applying it")
  func sourceOutlivesAction() {
    let source = PassthroughSubject<Int, Never>()
    let calls = RunCounter()
    var action: Action<Int, Int, Never>? = Action { input in
      calls.increment()
      return .just(input)
    }
    action! <~ source
    source.send(1)
    action = nil
    source.send(2)
    #expect(calls.value == 1)
  }

  @Test("a run in flight keeps the action alive until it ends, then the action is freed")
  func runInFlightKeepsAction() {
    weak var weakAction: Action<Int, Int, ColdTestError>?
    let source = PassthroughSubject<Int, Never>()
    var run: PassthroughSubject<Int, ColdTestError>?
    do {
      let (action, log) = controlledAction()
      weakAction = action
      action <~ source
      source.send(1)
      run = log.current
    }
    #expect(weakAction != nil)
    run?.send(completion: .finished)
    run = nil
    #expect(weakAction == nil)
  }

  @Test("the binding asks the source for unlimited values")
  func unlimitedDemand() {
    let demands = LockedBox<[Subscribers.Demand]>([])
    let action = Action<Int, Int, Never> { .just($0) }
    action
      <~ PassthroughSubject<Int, Never>().handleEvents(receiveRequest: { demand in
        demands.withLock { $0.append(demand) }
      })
    #expect(demands.withLock { $0 } == [.unlimited])
  }

  @Test("a value sent from inside a run's value handler applies again once the run is over")
  func reentrantSend() {
    let source = PassthroughSubject<Int, Never>()
    let action = Action<Int, Int, Never> { .just($0) }
    let seen = LockedBox<[Int]>([])
    let relay = action.completed.sink { _ in
      let count = seen.withLock { $0.count }
      if count < 3 { source.send(count) }
    }
    let values = action.values.sink { value in seen.withLock { $0.append(value) } }
    action <~ source
    source.send(7)
    #expect(seen.withLock { $0 } == [7, 1, 2])
    _ = (relay, values)
  }

  @Test("a debounced property drives an action (the recipe in Actions.md)")
  func debouncedPropertyRecipe() {
    let scheduler = DispatchQueue.test
    let query = MutableProperty("")
    let searches = LockedBox<[String]>([])
    let search = Action<String, [String], Never> { text in
      searches.withLock { $0.append(text) }
      return .just([text])
    }
    search <~ query.dropFirst().debounce(for: .milliseconds(300), scheduler: scheduler)
    query.value = "s"
    query.value = "sw"
    scheduler.advance(by: .milliseconds(300))
    query.value = "swift"
    scheduler.advance(by: .milliseconds(300))
    #expect(searches.withLock { $0 } == ["sw", "swift"])
  }

  @Test("stress: 8 threads sending to a bound source start one run at a time")
  func stressConcurrentSends() async {
    let inFlight = LockedBox((current: 0, maximum: 0))
    let action = Action<Int, Int, Never> { input in
      AnyDeferredPublisher {
        inFlight.withLock {
          $0.current += 1
          $0.maximum = max($0.maximum, $0.current)
        }
        defer { inFlight.withLock { $0.current -= 1 } }
        return Just(input)
      }
    }
    let completed = action.completed.record()
    let refused = action.disabledErrors.record()
    let source = PassthroughSubject<Int, Never>()
    action <~ source
    await concurrentPerform(8) { thread in
      for round in 0..<200 { source.send(thread * 1000 + round) }
    }
    #expect(inFlight.withLock { $0.maximum } == 1)
    #expect(completed.values.count + refused.values.count == 1600)
    #expect(completed.values.count >= 1)
  }
}
