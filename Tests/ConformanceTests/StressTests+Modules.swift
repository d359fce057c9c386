import CombineEx
import CombineExStore
import Foundation
import Testing

/// Rule 5 under load for the combining and sharing operators, actions and the store: 8 threads
/// at once, with cancellation racing delivery (see `StressTests` for the subjects, merges,
/// `flatMap`, `switchToLatest`, futures and properties).
@Suite("stress: combining, sharing, actions and the store")
struct ModuleStressTests {
  static let threads = 8
  static let valuesPerThread = 1_000
  static let stride = StressTests.stride

  /// The values threads `range` send.
  static func values(ofThreads range: Range<Int>) -> [Int] {
    range.flatMap { thread in (0..<valuesPerThread).map { thread * stride + $0 } }
  }

  /// Whether each thread's values appear in the order it sent them, repeats allowed.
  static func neverGoesBack(_ values: [Int]) -> Bool {
    var last: [Int: Int] = [:]
    for value in values {
      let thread = value / stride
      if let previous = last[thread], previous > value { return false }
      last[thread] = value
    }
    return true
  }

  @Test(
    "stress: combineLatest of two subjects fed by 4 threads each makes one output per value, serially, with a cancel racing"
  )
  func stressCombineLatest() async {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let kept = StressRecorder<(Int, Int), Never>()
    let cancelled = StressRecorder<(Int, Int), Never>()
    first.combineLatest(second).subscribe(kept)
    first.combineLatest(second).subscribe(cancelled)
    first.send(-1)
    second.send(-1)
    await onThreads(Self.threads) { thread in
      let subject = thread < 4 ? first : second
      for index in 0..<Self.valuesPerThread {
        subject.send(thread * Self.stride + index)
        if thread == 7, index == 300 { cancelled.cancel() }
      }
    }
    first.send(completion: .finished)
    second.send(completion: .finished)
    let outputs = kept.values
    // Every value sent after both had one makes exactly one output, carrying it.
    #expect(outputs.count == 1 + Self.threads * Self.valuesPerThread)
    // A latest value repeats until its input sends again, and never goes back.
    let firsts = outputs.map(\.0).filter { $0 >= 0 }
    let seconds = outputs.map(\.1).filter { $0 >= 0 }
    #expect(Self.neverGoesBack(firsts) && Self.neverGoesBack(seconds))
    #expect(Set(firsts) == Set(Self.values(ofThreads: 0..<4)))
    #expect(Set(seconds) == Set(Self.values(ofThreads: 4..<8)))
    #expect(kept.completionCount == 1 && kept.overlappingDeliveries == 0)
    #expect(cancelled.eventsAfterCancel <= 1 && cancelled.completionCount == 0)
    #expect(cancelled.overlappingDeliveries == 0)
  }

  @Test(
    "stress: zip of two subjects fed by 4 threads each pairs every value once, in order, with a cancel racing"
  )
  func stressZip() async {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let kept = StressRecorder<(Int, Int), Never>()
    let cancelled = StressRecorder<(Int, Int), Never>()
    first.zip(second).subscribe(kept)
    first.zip(second).subscribe(cancelled)
    await onThreads(Self.threads) { thread in
      let subject = thread < 4 ? first : second
      for index in 0..<Self.valuesPerThread {
        subject.send(thread * Self.stride + index)
        if thread == 7, index == 300 { cancelled.cancel() }
      }
    }
    first.send(completion: .finished)
    second.send(completion: .finished)
    for recorder in [kept] {
      let pairs = recorder.values
      #expect(pairs.count == 4 * Self.valuesPerThread)
      #expect(pairs.map(\.0).sorted() == Self.values(ofThreads: 0..<4))
      #expect(pairs.map(\.1).sorted() == Self.values(ofThreads: 4..<8))
      #expect(ThreadedValues(values: pairs.map(\.0), stride: Self.stride).keepsEachThreadsOrder)
      #expect(ThreadedValues(values: pairs.map(\.1), stride: Self.stride).keepsEachThreadsOrder)
      #expect(recorder.completionCount == 1 && recorder.overlappingDeliveries == 0)
      #expect(!recorder.exceededDemand)
    }
    let partial = cancelled.values
    #expect(ThreadedValues(values: partial.map(\.0), stride: Self.stride).keepsEachThreadsOrder)
    #expect(!ThreadedValues(values: partial.map(\.1), stride: Self.stride).hasDuplicates)
    #expect(cancelled.eventsAfterCancel <= 1 && cancelled.completionCount == 0)
  }

  @Test(
    "stress: share of a subject fed by 8 threads gives every subscriber every value once, with cancels racing"
  )
  func stressShare() async {
    let subject = PassthroughSubject<Int, Never>()
    let shared = subject.map { $0 }.share()
    let kept = (0..<3).map { _ in StressRecorder<Int, Never>() }
    let cancelled = (0..<3).map { _ in StressRecorder<Int, Never>() }
    for recorder in kept + cancelled { shared.subscribe(recorder) }
    await onThreads(Self.threads) { thread in
      for index in 0..<Self.valuesPerThread {
        subject.send(thread * Self.stride + index)
        if thread < cancelled.count, index == 200 * (thread + 1) { cancelled[thread].cancel() }
      }
    }
    subject.send(completion: .finished)
    for recorder in kept {
      #expect(recorder.values.sorted() == Self.values(ofThreads: 0..<Self.threads))
      #expect(ThreadedValues(values: recorder.values, stride: Self.stride).keepsEachThreadsOrder)
      #expect(recorder.completionCount == 1 && recorder.overlappingDeliveries == 0)
    }
    for recorder in cancelled {
      let received = ThreadedValues(values: recorder.values, stride: Self.stride)
      #expect(!received.hasDuplicates && received.keepsEachThreadsOrder)
      #expect(recorder.eventsAfterCancel <= 1 && recorder.completionCount == 0)
      #expect(recorder.overlappingDeliveries == 0)
    }
  }

  @Test(
    "stress: an Action applied from 8 threads runs one execution at a time and reports each apply once"
  )
  func stressActionApplies() async {
    let action = Action<Int, Int, Never> { input in .just(input) }
    let values = StressRecorder<Int, Never>()
    let cancelledValues = StressRecorder<Int, Never>()
    let disabled = StressRecorder<Void, Never>()
    let executing = StressRecorder<Bool, Never>()
    action.values.subscribe(values)
    action.values.subscribe(cancelledValues)
    action.disabledErrors.subscribe(disabled)
    action.isExecuting.subscribe(executing)
    let succeeded = AtomicCounter()
    let refused = AtomicCounter()
    let perThread = 400
    await onThreads(Self.threads) { thread in
      for index in 0..<perThread {
        let outcome = StressRecorder<Int, ActionError<Never>>()
        action.apply(thread * Self.stride + index).subscribe(outcome)
        if outcome.values.count == 1, outcome.completionCount == 1 {
          _ = succeeded.increment()
        } else if outcome.values.isEmpty, outcome.completionCount == 1 {
          _ = refused.increment()
        }
        if thread == 7, index == 100 { cancelledValues.cancel() }
      }
    }
    // Every apply either ran (its value, then `.finished`) or was refused as disabled.
    #expect(succeeded.value + refused.value == Self.threads * perThread)
    #expect(succeeded.value > 0)
    #expect(values.values.count == succeeded.value)
    #expect(ThreadedValues(values: values.values, stride: Self.stride).keepsEachThreadsOrder)
    #expect(!ThreadedValues(values: values.values, stride: Self.stride).hasDuplicates)
    #expect(disabled.values.count == refused.value)
    #expect(!action.isExecuting.value)
    // isExecuting alternates, one execution at a time: false, true, false, true ...
    let flags = executing.values
    #expect(flags.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 1) })
    #expect(flags.last == false)
    for recorder in [values, cancelledValues] { #expect(recorder.overlappingDeliveries == 0) }
    #expect(cancelledValues.eventsAfterCancel <= 1)
  }

  @Test(
    "stress: a Store dispatched to from 8 threads reduces every action once and publishes every state in order"
  )
  func stressStoreDispatch() async {
    let store = Store<Int>(
      reducer: { state, action in
        if action is Increment { state += 1 }
      }, state: 0)
    let states = StressRecorder<Int, Never>()
    let keyed = StressRecorder<Int, Never>()
    let cancelled = StressRecorder<Int, Never>()
    store.statePublisher.subscribe(states)
    store.publisher(for: \.self).subscribe(keyed)
    store.statePublisher.subscribe(cancelled)
    let perThread = 500
    await onThreads(Self.threads) { thread in
      for index in 0..<perThread {
        store.dispatch(Increment())
        if thread == 7, index == 100 { cancelled.cancel() }
      }
    }
    let total = Self.threads * perThread
    #expect(store.state == total)
    #expect(states.values == Array(0...total))
    #expect(keyed.values == Array(0...total))
    let partial = cancelled.values
    #expect(partial == Array(0..<partial.count))
    #expect(cancelled.eventsAfterCancel <= 1 && cancelled.completionCount == 0)
    for recorder in [states, keyed, cancelled] { #expect(recorder.overlappingDeliveries == 0) }
  }
}

/// The action of the stress test's store: adds one.
struct Increment: StoreAction {}
