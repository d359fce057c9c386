/// A typed value kept in storage that is not generic, for the classes that must not have
/// generic stored properties: ``Future`` and ``SingleResultSubscription`` keep their `Result`
/// in one, and CombineEx's action runs their subscriber (a generic class's deinitializer, and
/// any of its code that runs unspecialized, looks up the metadata of each generic field it
/// touches in the runtime's cache; an `Optional<Downstream>` field costs a lookup in every
/// function that tests, copies or destroys it).
///
/// A value of at most four words, aligned to at most a word and bitwise movable
/// (`Result<Int, Never>`, `Result<String, any Error>`, a subscriber class, most structs), is
/// stored in place, in `words`, written and read by the generic `@inlinable` accessors, which
/// are specialized where the future or the subscriber is (or read the value's own value
/// witnesses, handed to unspecialized code without a lookup). Another one is boxed in a
/// ``BoxedResult``, as is a result handed over already boxed in an `Any`. The slot used to be
/// an `Any?`: copying, testing and destroying an optional existential runs the runtime's
/// generic value witnesses, and opening it a dynamic cast, about a fifth of subscribing to a
/// `Future` (`e3`, issue 30). Since what it holds in place is bitwise movable, the slot may be
/// moved (``moveOut()``).
///
/// Who empties it:
/// - A value stored with a destroyer (``store(_:)``, for a `Result`: made where the type is
///   known) is destroyed by ``clear()``, which its owner also calls in its deinitializer
///   without knowing the type.
/// - A value stored without one (``init(holding:)``, for code that knows the type wherever it
///   touches the slot but runs unspecialized, where making a destroyer closure would capture
///   the type's metadata, an allocation) is emptied with ``take(as:)`` or ``clear(as:)``.
///
/// The slot has no deinit: its owner empties it. Its owner's lock guards it.
@usableFromInline
package struct ResultSlot: ~Copyable {
  /// What the slot holds.
  @usableFromInline
  enum State: UInt8 {
    case empty
    case success
    case failure
    /// A value that is not a `Result` (``init(holding:)``).
    case value
  }

  /// The storage of an in-place value: bound to the value's type while it holds one.
  @usableFromInline
  var words: (UInt, UInt, UInt, UInt) = (0, 0, 0, 0)
  /// A value that does not fit in `words`, or a result handed over boxed.
  @usableFromInline
  var boxed: BoxedResult?
  /// Destroys the in-place value; `nil` when there is none, it needs no destroying, or its
  /// owner destroys it knowing its type (``clear(as:)``).
  @usableFromInline
  var destroyer: ResultDestroyer?
  @usableFromInline
  var state = State.empty

  @inlinable
  package init() {}

  /// A slot holding `value`, without a destroyer: its owner empties it with ``take(as:)`` or
  /// ``clear(as:)``, naming `Value`.
  @inlinable @inline(__always)
  package init<Value>(holding value: Value) {
    state = .value
    guard Self.storesInPlace(Value.self) else {
      boxed = BoxedResult(value)
      return
    }
    Self.initialize(&words, to: value)
  }

  /// Whether the slot holds a value.
  @inlinable
  package var isEmpty: Bool { state == .empty }

  /// Whether the slot holds a failure (delivered without demand).
  @inlinable
  package var isFailure: Bool { state == .failure }

  /// Whether a `Value` is stored in place. (Read from its value witnesses: no lookup; in
  /// specialized code, a constant.)
  @inlinable @inline(__always)
  static func storesInPlace<Value>(_: Value.Type) -> Bool {
    MemoryLayout<Value>.size <= MemoryLayout<(UInt, UInt, UInt, UInt)>.size
      && MemoryLayout<Value>.alignment <= MemoryLayout<UInt>.alignment
      && _isBitwiseTakable(Value.self)
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
    Self.initialize(&words, to: result)
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
    copy(as: Result<Output, Failure>.self)
  }

  /// A copy of the value, which must be there and be a `Value`.
  @inlinable @inline(__always)
  package mutating func copy<Value>(as _: Value.Type) -> Value {
    if let boxed { return boxed.value as! Value }
    return Self.copy(from: &words, as: Value.self)
  }

  /// Moves the result out, leaving the slot empty; it must be there and be a
  /// `Result<Output, Failure>`.
  @inlinable
  package mutating func take<Output, Failure>(
    _: Result<Output, Failure>.Type
  ) -> Result<Output, Failure> {
    take(as: Result<Output, Failure>.self)
  }

  /// Moves the value out, leaving the slot empty; it must be there and be a `Value`.
  @inlinable @inline(__always)
  package mutating func take<Value>(as _: Value.Type) -> Value {
    state = .empty
    if let boxed {
      self.boxed = nil
      return boxed.value as! Value
    }
    destroyer = nil
    return Self.move(from: &words, as: Value.self)
  }

  /// Moves what the slot holds, if anything, into a new slot, leaving this one empty. (A
  /// bitwise move: what is kept in place is bitwise movable.)
  @inlinable @inline(__always)
  package mutating func moveOut() -> ResultSlot {
    var moved = ResultSlot()
    swap(&moved.words, &words)
    swap(&moved.boxed, &boxed)
    swap(&moved.destroyer, &destroyer)
    swap(&moved.state, &state)
    return moved
  }

  /// Destroys the value, if any, leaving the slot empty. It may run user code (a deinit):
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

  /// Destroys the value, if any, which must be a `Value`, leaving the slot empty: for a value
  /// stored without a destroyer (``init(holding:)``). It may run user code (a deinit): never
  /// under a lock.
  @inlinable @inline(__always)
  package mutating func clear<Value>(as _: Value.Type) {
    guard state != .empty else { return }
    state = .empty
    if boxed != nil {
      boxed = nil
    } else {
      destroyer = nil
      Self.destroy(&words, as: Value.self)
    }
  }

  // The value accessors are always inlined: an action run's unspecialized code calls them, and
  // a call to a generic function of another module there ran it out of line, with the value's
  // witnesses (50 instructions a run in Benchmarks' `j2`).
  //
  // The in-place accessors take `words`' address as an argument (`&words`), not through
  // `withUnsafeMutableBytes(of:)`: its closure, in the generic code that runs unspecialized
  // (CombineEx's `FutureWork`, an action run), was a partial application per access.

  /// Initializes the in-place storage at `words` to `value`.
  @inlinable @inline(__always)
  static func initialize<Value>(_ words: UnsafeMutableRawPointer, to value: Value) {
    words.initializeMemory(as: Value.self, to: value)
  }

  /// A copy of the value stored in place at `words`.
  @inlinable @inline(__always)
  static func copy<Value>(from words: UnsafeMutableRawPointer, as _: Value.Type) -> Value {
    words.assumingMemoryBound(to: Value.self).pointee
  }

  /// Moves the value stored in place at `words` out, leaving the storage uninitialized.
  @inlinable @inline(__always)
  static func move<Value>(from words: UnsafeMutableRawPointer, as _: Value.Type) -> Value {
    words.assumingMemoryBound(to: Value.self).move()
  }

  /// Destroys the value stored in place at `words`, leaving the storage uninitialized.
  @inlinable @inline(__always)
  static func destroy<Value>(_ words: UnsafeMutableRawPointer, as _: Value.Type) {
    words.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
  }
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

/// A value that a ``ResultSlot`` does not keep in place: too large or not bitwise movable, or
/// a result handed over boxed.
@usableFromInline
package final class BoxedResult {
  /// The `Result`, or the value of a slot made with `init(holding:)`.
  @usableFromInline
  let value: Any

  @usableFromInline
  init(_ value: Any) {
    self.value = value
  }
}
