#if DEBUG
  #if canImport(Darwin)
    import Darwin
  #elseif canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// One thread of an explored scenario, as its hooks see it: found through a thread-local
  /// slot, so that only the scenario's threads stop at points.
  @usableFromInline
  final class InterleavingParticipant: @unchecked Sendable {
    // @unchecked Sendable: `locksHeld` is touched only by the participant's own thread; the
    // rest is immutable.

    /// The run this thread belongs to.
    let exploration: InterleavingExploration

    /// The thread's number in the scenario (T0, T1, ...).
    let index: Int

    /// How many ``Lock``s the thread holds: points are not taken inside a critical section.
    /// Touched only by this thread.
    var locksHeld = 0

    init(exploration: InterleavingExploration, index: Int) {
      self.exploration = exploration
      self.index = index
    }

    /// The participant the calling thread runs as, if any.
    @usableFromInline
    static var current: InterleavingParticipant? {
      guard let pointer = pthread_getspecific(participantKey) else { return nil }
      return Unmanaged<InterleavingParticipant>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Makes the calling thread this participant (`nil`: no participant), for the length of
    /// its part of the scenario. The caller keeps the participant alive meanwhile.
    static func setCurrent(_ participant: InterleavingParticipant?) {
      pthread_setspecific(
        participantKey,
        participant.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) })
    }

    /// Waits at point `name` until the schedule lets this thread pass.
    @usableFromInline
    func pause(at name: StaticString) {
      guard locksHeld == 0 else { return }
      exploration.pause(self, at: name)
    }

    @usableFromInline
    func enterCriticalSection() {
      locksHeld += 1
    }

    @usableFromInline
    func exitCriticalSection() {
      locksHeld -= 1
    }
  }

  /// The thread-local slot that holds a scenario thread's participant.
  private let participantKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "the interleaving explorer could not create its thread-local key")
    return key
  }()
#endif
