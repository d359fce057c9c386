/// Where an action was dispatched from: a file, a function and a line, plus optional
/// information.
///
/// ``Store/dispatch(_:file:function:line:)`` records its call site. Actions dispatched by a
/// ``Thunk``, a ``PublisherAction`` or a ``RetainedPublisherAction`` carry the place where that
/// action was created, and the outputs of an ``EffectMiddleware``'s effects carry the place where
/// its ``EffectMiddleware/onAction(file:function:line:_:)`` was written. Actions dispatched
/// through a middleware's own `dispatch` function carry ``unknown``.
///
/// An ``EffectMiddleware`` reads the source of the action it reacts to in its context
/// (``EffectMiddleware/Context/source``), which helps logging and debugging.
///
/// ```swift
/// let source = ActionSource(
///   file: "App/SearchView.swift", function: "submit()", line: 42, info: "button")
/// print(source)  // Prints: App/SearchView.swift:42 submit() (button)
/// ```
public struct ActionSource: Hashable, Sendable, CustomStringConvertible {
  /// The file (`#fileID`) the action was dispatched from.
  public let file: String
  /// The function the action was dispatched from.
  public let function: String
  /// The line the action was dispatched from.
  public let line: UInt
  /// Extra information about the dispatch (for example, "thunk" or "effect of Search").
  public let info: String?

  /// Creates a source from its parts.
  public init(file: String, function: String, line: UInt, info: String? = nil) {
    self.file = file
    self.function = function
    self.line = line
    self.info = info
  }

  /// The source at the place this is called from.
  public static func here(
    file: String = #fileID, function: String = #function, line: UInt = #line,
    info: String? = nil
  ) -> ActionSource {
    ActionSource(file: file, function: function, line: line, info: info)
  }

  /// The source of an action dispatched through a middleware's own `dispatch` function, whose
  /// call site the store cannot see.
  public static let unknown = ActionSource(
    file: "<unknown>", function: "<unknown>", line: 0, info: "dispatched by a middleware")

  /// `file:line function`, then the information if any.
  public var description: String {
    let place = "\(file):\(line) \(function)"
    guard let info else { return place }
    return "\(place) (\(info))"
  }

  /// `Search.swift:42`: the file's name (without its module) and the line, as messages name
  /// the place where a thunk or a publisher action was created.
  var fileAndLine: String {
    let name = file.split(separator: "/").last.map(String.init) ?? file
    return "\(name):\(line)"
  }

  /// The same place with other information.
  func with(info: String) -> ActionSource {
    ActionSource(file: file, function: function, line: line, info: info)
  }
}

extension ActionSource {
  /// The source of the action the store processes on this thread, or ``unknown``.
  @usableFromInline
  static var ofCurrentAction: ActionSource {
    ProcessingContext.current?.source ?? .unknown
  }
}

/// `action` wrapped with `source`, unless it already carries one (see ``SourcedAction``).
@usableFromInline
func sourcedAction(_ action: any StoreAction, source: ActionSource) -> any StoreAction {
  SourcedAction.wrap(action, source: source)
}

/// An action together with the source it should be recorded with.
///
/// Thunks, publisher actions and effect middlewares dispatch their actions wrapped in one; the
/// store unwraps it before the middleware chain, so that no middleware or reducer ever sees it.
struct SourcedAction: StoreAction {
  let action: any StoreAction
  let source: ActionSource

  /// Wraps `action`, unless it already carries a source.
  static func wrap(_ action: any StoreAction, source: ActionSource) -> any StoreAction {
    type(of: action) == SourcedAction.self
      ? action : SourcedAction(action: action, source: source)
  }

  /// `action` as a sourced action, if it is one. A struct has no subclasses, so comparing the
  /// dynamic type is enough, and it costs a comparison where `as?` runs the runtime's general
  /// cast at every dispatch.
  static func unwrap(_ action: any StoreAction) -> SourcedAction? {
    guard type(of: action) == SourcedAction.self else { return nil }
    return action as? SourcedAction
  }
}
