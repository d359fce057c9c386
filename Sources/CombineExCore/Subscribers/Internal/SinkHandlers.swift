/// The closures of a ``Subscribers/Sink``, held in the sink itself until it releases them.
///
/// Noncopyable, so that the sink's delivery path borrows them in place: calling them costs no
/// reference counting (two atomic operations per value, as a copy out of a `var` would), yet the
/// sink can still drop them, and what they capture, after the completion or a cancel while it
/// lives on in an `AnyCancellable`. Stored in the sink rather than in an object of their own:
/// one allocation less per `sink`. Its payloads are functions, whose layout does not depend on
/// `Input`, so the sink's unspecialized deinitializer destroys them without a metadata lookup.
@usableFromInline
enum SinkHandlers<Input, Failure: Error>: ~Copyable {
  /// The closures, until released.
  case held(
    receiveValue: (Input) -> Void,
    receiveCompletion: (Subscribers.Completion<Failure>) -> Void)
  /// Released after the completion or a cancel: nothing is called.
  case released

  /// Whether the closures are still held.
  @inlinable
  @inline(__always)
  var isHeld: Bool {
    switch self {
    case .held: return true
    case .released: return false
    }
  }

  /// Calls `receiveValue`, unless released.
  @inlinable
  @inline(__always)
  func receive(_ value: Input) {
    switch self {
    case .held(let receiveValue, _): receiveValue(value)
    case .released: break
    }
  }

  /// Calls `receiveCompletion`, unless released.
  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    switch self {
    case .held(_, let receiveCompletion): receiveCompletion(completion)
    case .released: break
    }
  }

  /// `receiveValue`, or `nil` once released.
  @inlinable
  var receiveValue: ((Input) -> Void)? {
    switch self {
    case .held(let receiveValue, _): return receiveValue
    case .released: return nil
    }
  }

  /// `receiveCompletion`, or `nil` once released.
  @inlinable
  var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? {
    switch self {
    case .held(_, let receiveCompletion): return receiveCompletion
    case .released: return nil
    }
  }

  /// Marks the closures released and returns them, for the caller to drop once the sink no
  /// longer refers to them (their captures' deinitializers may call back into the sink).
  @inlinable
  mutating func take() -> SinkHandlers {
    let taken = consume self
    self = .released
    return taken
  }
}
