#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One pointer per thread (a POSIX thread-specific key), `nil` until the thread sets it.
///
/// Reading and writing it costs a few instructions and never allocates, unlike binding a
/// `@TaskLocal` value outside a task (two allocations per binding). Code that binds a value
/// points the slot at a copy in its own frame for as long as the binding lasts, and puts the
/// outer pointer back before that frame ends (see ``ProcessingContext/bind(_:_:)``).
struct ThreadLocalSlot: Sendable {
  private let key: pthread_key_t

  /// Creates a slot. Make each slot once, in a global: keys are a limited resource, never
  /// deleted here.
  init() {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "the store could not create a thread-local key")
    self.key = key
  }

  /// The calling thread's pointer.
  var pointer: UnsafeRawPointer? {
    UnsafeRawPointer(pthread_getspecific(key))
  }

  /// Sets the calling thread's pointer.
  func set(_ pointer: UnsafeRawPointer?) {
    pthread_setspecific(key, pointer)
  }

  /// Runs `body` with the calling thread's pointer at `value` (a copy that lives until `body`
  /// returns), then puts the pointer it found back.
  func bind<Value, Result>(_ value: Value, _ body: () -> Result) -> Result {
    let outer = pointer
    return withUnsafePointer(to: value) { bound in
      set(bound)
      defer { set(outer) }
      return body()
    }
  }

  /// The value the calling thread's pointer is at, if any; `Value` must be the type bound.
  func value<Value>(as _: Value.Type) -> Value? {
    pointer?.assumingMemoryBound(to: Value.self).pointee
  }
}
