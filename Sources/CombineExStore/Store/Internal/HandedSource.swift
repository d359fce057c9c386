/// The source of an action, handed to a store's `dispatch` function on the side instead of
/// wrapping the action in a ``SourcedAction``: the wrapper does not fit an existential's inline
/// buffer, so each wrapped dispatch allocated a box.
///
/// ``dispatch(_:source:through:)`` binds the source on the calling thread for the length of the
/// call; the first `dispatch` function of a store reached during it takes the source (the
/// binding is then empty, so dispatches nested in that action's processing carry their own),
/// exactly as that store's ``Store/dispatch(_:from:)`` would unwrap a ``SourcedAction``. A
/// `dispatch` that never reaches a store leaves the source unused, and the binding ends with the
/// call.
enum HandedSource {
  /// Calls `dispatch` with `action`, handing it `source`.
  static func dispatch(
    _ action: any StoreAction, source: ActionSource, through dispatch: Dispatch
  ) {
    handedSourceSlot.bind(source) { dispatch(action) }
  }

  /// Takes the source handed to the dispatch running on this thread, if any.
  static func take() -> ActionSource? {
    guard let source = handedSourceSlot.value(as: ActionSource.self) else { return nil }
    handedSourceSlot.set(nil)
    return source
  }
}

/// Where ``HandedSource`` binds a source.
private let handedSourceSlot = ThreadLocalSlot()
