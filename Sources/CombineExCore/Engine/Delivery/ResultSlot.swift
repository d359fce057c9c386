/// A `Result` kept in storage that is not generic, for the classes that must not have generic
/// stored properties: ``Future`` and ``SingleResultSubscription`` (a generic class's
/// deinitializer is never specialized, and destroying a generic field there looks up its
/// metadata in the runtime's cache).
///
/// A result of at most four words, aligned to at most a word (`Result<Int, Never>`,
/// `Result<String, any Error>`, most results), is stored in place, in `words`, written and read
/// by the generic `@inlinable` accessors, which are specialized where the future or the
/// subscriber is. A larger one is boxed in a ``BoxedResult``, as is one handed over already
/// boxed in an `Any`. The slot used to be an `Any?`: copying, testing and destroying an
/// optional existential runs the runtime's generic value witnesses, and opening it a dynamic
/// cast, about a fifth of subscribing to a `Future` (`e3`, issue 30).
///
/// The slot destroys what it holds when it is cleared (``clear()``, which its owner also calls
/// in its deinitializer), without knowing its type: an in-place result that needs destroying
/// (not trivial) comes with a ``ResultDestroyer``, made where the type is known. It lives in a
/// stored property of its owner and is never moved (an in-place value may not be bitwise
/// movable), and its owner's lock guards it.
@usableFromInline
package struct ResultSlot: ~Copyable {
  /// What the slot holds.
  @usableFromInline
  enum State: UInt8 {
    case empty
    case success
    case failure
  }

  /// The storage of an in-place result: bound to the result's type while it holds one.
  @usableFromInline
  var words: (UInt, UInt, UInt, UInt) = (0, 0, 0, 0)
  /// A result that does not fit in `words`, or one handed over boxed.
  @usableFromInline
  var boxed: BoxedResult?
  /// Destroys the in-place result; `nil` when there is none or it needs no destroying.
  @usableFromInline
  var destroyer: ResultDestroyer?
  @usableFromInline
  var state = State.empty

  @inlinable
  package init() {}

  /// Whether the slot holds a result.
  @inlinable
  package var isEmpty: Bool { state == .empty }

  /// Whether the slot holds a failure (delivered without demand).
  @inlinable
  package var isFailure: Bool { state == .failure }

  /// Whether a `Result<Output, Failure>` is stored in place.
  @inlinable
  static func storesInPlace<Output, Failure>(_: Result<Output, Failure>.Type) -> Bool {
    MemoryLayout<Result<Output, Failure>>.size <= MemoryLayout<(UInt, UInt, UInt, UInt)>.size
      && MemoryLayout<Result<Output, Failure>>.alignment <= MemoryLayout<UInt>.alignment
  }

  /// Keeps `result`; the slot must be empty.
  @inlinable
  package mutating func store<Output, Failure>(_ result: Result<Output, Failure>) {
    switch result {
    case .success: state = .success
    case .failure: state = .failure
    }
    guard Self.storesInPlace(Result<Output, Failure>.self) else {
      boxed = BoxedResult(result)
      return
    }
    InPlaceWords.initialize(&words, to: result)
    // Decided by the type: specialized, a trivial result stores no destroyer.
    if !_isPOD(Result<Output, Failure>.self) {
      destroyer = ResultDestroyer {
        $0.assumingMemoryBound(to: Result<Output, Failure>.self).deinitialize(count: 1)
      }
    }
  }

  /// Keeps `result`, a `Result` boxed in an `Any`; the slot must be empty.
  @usableFromInline
  package mutating func store(boxed result: Any, isFailure: Bool) {
    state = isFailure ? .failure : .success
    boxed = BoxedResult(result)
  }

  /// A copy of the result, which must be there and be a `Result<Output, Failure>`.
  @inlinable
  package mutating func copy<Output, Failure>(
    _: Result<Output, Failure>.Type
  ) -> Result<Output, Failure> {
    if let boxed { return boxed.value as! Result<Output, Failure> }
    return InPlaceWords.copy(from: &words, as: Result<Output, Failure>.self)
  }

  /// Moves the result out, leaving the slot empty; it must be there and be a
  /// `Result<Output, Failure>`.
  @inlinable
  package mutating func take<Output, Failure>(
    _: Result<Output, Failure>.Type
  ) -> Result<Output, Failure> {
    state = .empty
    if let boxed {
      self.boxed = nil
      return boxed.value as! Result<Output, Failure>
    }
    destroyer = nil
    return InPlaceWords.move(from: &words, as: Result<Output, Failure>.self)
  }

  /// Destroys the result, if any, leaving the slot empty. It may run user code (a deinit):
  /// never under a lock.
  @inlinable
  package mutating func clear() {
    guard state != .empty else { return }
    state = .empty
    boxed = nil
    if let destroyer {
      self.destroyer = nil
      destroyer.destroy(&words)
    }
  }

  // The in-place accessors are `InPlaceWords`', shared with the other slot.
}

/// Destroys a result stored in place in a ``ResultSlot``, whose type it knows. A closure made
/// where the type is known captures nothing (no allocation); it is wrapped in a struct so that
/// storing it in an optional does not re-abstract it (one thunk allocation per store and call).
@usableFromInline
package struct ResultDestroyer {
  @usableFromInline
  let destroy: (UnsafeMutableRawPointer) -> Void

  @inlinable
  init(_ destroy: @escaping (UnsafeMutableRawPointer) -> Void) {
    self.destroy = destroy
  }
}

/// A result that a ``ResultSlot`` does not keep in place: too large, or handed over boxed.
@usableFromInline
package final class BoxedResult {
  /// The `Result`.
  @usableFromInline
  let value: Any

  @usableFromInline
  init(_ value: Any) {
    self.value = value
  }
}
