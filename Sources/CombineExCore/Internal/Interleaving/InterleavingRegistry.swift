#if DEBUG
  import Synchronization

  #if canImport(Darwin)
    import Darwin
  #elseif canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// The explorations that are running, so that an unpark made by any thread reaches the
  /// scenario threads asleep on its address; it also keeps the count the hooks read.
  final class InterleavingRegistry: @unchecked Sendable {
    // @unchecked Sendable: `explorations` is guarded by `mutex` (a pthread mutex: a ``Lock``
    // would call the explorer's hooks).
    static let shared = InterleavingRegistry()

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var explorations: [InterleavingExploration] = []

    private init() {
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    }

    func add(_ exploration: InterleavingExploration) {
      pthread_mutex_lock(mutex)
      explorations.append(exploration)
      interleavingExplorationsRunning.add(1, ordering: .relaxed)
      pthread_mutex_unlock(mutex)
    }

    func remove(_ exploration: InterleavingExploration) {
      pthread_mutex_lock(mutex)
      explorations.removeAll { $0 === exploration }
      interleavingExplorationsRunning.subtract(1, ordering: .relaxed)
      pthread_mutex_unlock(mutex)
    }

    /// Tells every running exploration that `address` was unparked.
    func unparked(_ address: UnsafeRawPointer) {
      pthread_mutex_lock(mutex)
      let running = explorations
      pthread_mutex_unlock(mutex)
      for exploration in running { exploration.unparked(address) }
    }
  }
#endif
