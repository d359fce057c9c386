import CombineExCore

/// The applying subscriber of an ``ActionRun``, kept without `Optional<Downstream>`.
///
/// A run's code is never specialized (the subscriber's type is known only behind
/// `AnyDeferredPublisher`), and there every use of an `Optional<Downstream>` (stored, copied or
/// local) looks the optional's metadata up in the runtime's cache: once in each of the run's
/// functions, a fifth of Benchmarks' `j2`. This slot keeps a downstream of at most four words,
/// aligned to at most a word and bitwise movable (a subscriber class, most structs), in place,
/// in `words`, through `Downstream`'s own value witnesses, which the run's generic code is
/// handed without a lookup; another one is boxed (a lookup and an allocation, for it only).
///
/// The run's lock guards its slot. Under the lock, the run copies the downstream into a local
/// slot (``copy(as:)``), or moves it there (``take()``) when the run ends, and calls it from the
/// local slot (``consume(as:)``) after unlocking, so the downstream is released, and its deinit
/// runs, outside the lock. A slot has no deinit (it does not know its downstream's type): its
/// owner empties it, with ``consume(as:)`` or ``clear(as:)``.
struct ActionRunDownstream: ~Copyable {
  /// The storage of an in-place downstream: bound to its type while it holds one.
  private var words: (UInt, UInt, UInt, UInt) = (0, 0, 0, 0)
  /// A downstream that is not kept in place.
  private var boxed: AnyObject?
  /// Whether the slot holds a downstream.
  private(set) var isHeld = false

  /// An empty slot.
  init() {}

  /// A slot holding `downstream`.
  @inline(__always)
  init<Downstream>(_ downstream: Downstream) {
    isHeld = true
    guard Self.storesInPlace(Downstream.self) else {
      boxed = Box(downstream)
      return
    }
    InPlaceWords.initialize(&words, to: downstream)
  }

  /// Whether a `Downstream` is stored in place. (Read from its value witnesses: no lookup.)
  @inline(__always)
  private static func storesInPlace<Downstream>(_: Downstream.Type) -> Bool {
    MemoryLayout<Downstream>.size <= MemoryLayout<(UInt, UInt, UInt, UInt)>.size
      && MemoryLayout<Downstream>.alignment <= MemoryLayout<UInt>.alignment
      && _isBitwiseTakable(Downstream.self)
  }

  /// A slot holding a copy of this one's downstream, if it holds one, a `Downstream`.
  @inline(__always)
  mutating func copy<Downstream>(as _: Downstream.Type) -> ActionRunDownstream {
    var copy = ActionRunDownstream()
    guard isHeld else { return copy }
    copy.isHeld = true
    if let boxed {
      copy.boxed = boxed
    } else {
      InPlaceWords.initialize(&copy.words, toCopyOf: &words, as: Downstream.self)
    }
    return copy
  }

  /// A slot holding this one's downstream, if any, leaving this one empty. (A bitwise move:
  /// an in-place downstream is bitwise movable.)
  mutating func take() -> ActionRunDownstream {
    var taken = ActionRunDownstream()
    swap(&taken.words, &words)
    swap(&taken.boxed, &boxed)
    swap(&taken.isHeld, &isHeld)
    return taken
  }

  /// The downstream, which the slot must hold and which must be a `Downstream`.
  @inline(__always)
  consuming func consume<Downstream>(as _: Downstream.Type) -> Downstream {
    assert(isHeld, "no downstream to consume")
    if let boxed { return unsafeDowncast(boxed, to: Box<Downstream>.self).downstream }
    return InPlaceWords.move(from: &words, as: Downstream.self)
  }

  /// Destroys the downstream, if the slot holds one, leaving it empty. It may run user code (a
  /// deinit): never under a lock.
  mutating func clear<Downstream>(as _: Downstream.Type) {
    guard isHeld else { return }
    isHeld = false
    if boxed != nil {
      boxed = nil
    } else {
      InPlaceWords.destroy(&words, as: Downstream.self)
    }
  }

  // The in-place accessors are the core's `InPlaceWords`, shared with its slots.

  /// A downstream that is not kept in place.
  private final class Box<Downstream> {
    let downstream: Downstream

    init(_ downstream: Downstream) {
      self.downstream = downstream
    }
  }
}
