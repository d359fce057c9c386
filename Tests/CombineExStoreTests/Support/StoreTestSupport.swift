import CombineExStore
import Foundation
import Synchronization

// MARK: Actions and states

/// Adds one to a counter.
struct Increment: StoreAction, Equatable {}

/// Adds an amount to a counter.
struct Add: StoreAction, Equatable {
  let amount: Int
}

/// An action with a name, for tests that record the order of actions.
struct Named: StoreAction, Equatable, CustomStringConvertible {
  let name: String
  init(_ name: String) { self.name = name }
  var description: String { name }
}

/// An action no reducer handles.
struct Unhandled: StoreAction {}

/// An error with an identity, for failure paths.
struct TestError: Error, Equatable {
  let id: Int
  init(_ id: Int = 0) { self.id = id }
}

/// A counter and the names of the actions that reached the reducer, in order.
struct Log: Equatable, Sendable {
  var count = 0
  var names: [String] = []
}

/// Counts `Increment` and `Add`, and logs `Named` actions (and the others, by type).
func logReducer(_ state: inout Log, _ action: any StoreAction) {
  switch action {
  case is Increment:
    state.count += 1
    state.names.append("Increment")
  case let add as Add:
    state.count += add.amount
    state.names.append("Add(\(add.amount))")
  case let named as Named:
    state.names.append(named.name)
  case is Unhandled:
    break
  default:
    state.names.append("\(type(of: action))")
  }
}

/// A store that counts and logs, with the given middlewares.
func makeLogStore(_ middlewares: [Middleware<Log>] = []) -> Store<Log> {
  Store(reducer: logReducer, state: Log(), middlewares: middlewares)
}

/// Adds `Increment`/`Add` to an integer.
func counterReducer(_ count: inout Int, _ action: any StoreAction) {
  if action is Increment { count += 1 }
  if let add = action as? Add { count += add.amount }
}

// MARK: Recording

/// A thread-safe list, for what callbacks on any thread record.
final class Recorder<Element>: @unchecked Sendable {
  // @unchecked Sendable: `items` is guarded by `lock`.
  private let lock = NSLock()
  private var items: [Element] = []

  init() {}

  func append(_ item: Element) {
    lock.withLock { items.append(item) }
  }

  var values: [Element] {
    lock.withLock { items }
  }

  var count: Int {
    lock.withLock { items.count }
  }
}

/// A thread-safe counter.
final class Counter: Sendable {
  private let value = Atomic<Int>(0)

  init() {}

  func increment() {
    value.add(1, ordering: .relaxed)
  }

  var count: Int {
    value.load(ordering: .relaxed)
  }
}

/// Records values delivered from any thread and counts overlapping deliveries, which would
/// break the serial-delivery rule.
final class SerialDeliveryChecker: Sendable {
  private let state = LockedBox<(values: [Int], inside: Int, overlaps: Int)>(([], 0, 0))

  init() {}

  func receive(_ value: Int) {
    state.withLock {
      $0.inside += 1
      if $0.inside > 1 { $0.overlaps += 1 }
    }
    state.withLock {
      $0.values.append(value)
      $0.inside -= 1
    }
  }

  var values: [Int] { state.withLock { $0.values } }
  var overlaps: Int { state.withLock { $0.overlaps } }
}

/// A middleware that records the actions it sees (by description) and passes them on.
func recordingMiddleware<State>(_ recorder: Recorder<String>) -> Middleware<State> {
  { _, _, next in
    { action in
      recorder.append("\(action)")
      next(action)
    }
  }
}

// MARK: Threads

/// Runs `body` on a new thread and returns when it is done.
///
/// What `body` wrote is visible after the call; the lock handed from the thread to the caller
/// also tells the thread sanitizer so (it does not see the continuation's resume as an ordering,
/// and reported a false race on a value the body wrote and the test read afterwards).
func onOtherThread(_ body: @escaping @Sendable () -> Void) async {
  let done = LockedBox(false)
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    let thread = Thread {
      body()
      done.withLock { $0 = true }
      continuation.resume()
    }
    thread.start()
  }
  _ = done.withLock { $0 }
}

/// A number identifying the calling thread.
func threadID() -> UInt {
  #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
  #else
    return UInt(pthread_self())
  #endif
}

/// Whether the tests run under the thread sanitizer (which makes them several times slower):
/// its runtime is then linked into the process.
let isRunningUnderThreadSanitizer: Bool = {
  #if canImport(Darwin)
    return dlsym(UnsafeMutableRawPointer(bitPattern: -2), "__tsan_init") != nil
  #else
    return dlsym(nil, "__tsan_init") != nil
  #endif
}()

/// A value shared between a test and the closures it hands out, for tests that run on one
/// thread (or that order their threads with semaphores).
final class Shared<Value>: @unchecked Sendable {
  // @unchecked Sendable: the tests that use it order every access (one thread, or semaphores).
  var value: Value

  init(_ value: Value) {
    self.value = value
  }
}

/// Holds an object weakly, to check that it was freed.
final class WeakBox<Object: AnyObject>: @unchecked Sendable {
  // @unchecked Sendable: weak references are loaded atomically by the runtime.
  weak var object: Object?

  init(_ object: Object?) {
    self.object = object
  }
}

/// Waits for a semaphore on a thread of its own, so that neither the test's task nor a thread
/// of the cooperative pool blocks.
func waitFor(_ semaphore: DispatchSemaphore) async {
  await onOtherThread { semaphore.wait() }
}
