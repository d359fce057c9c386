import CombineExCore

/// A factory of cold runs that never overlap, with observable state: the thing behind a button.
///
/// An action wraps a closure that makes a cold publisher for an input. ``apply(_:)`` returns a
/// cold publisher too: nothing runs until it is subscribed. At subscription the action checks
/// its gate, atomically: if one of its runs is in flight, or ``init(enabledIf:execute:)-83edc``'s
/// `enabledIf` is `false`, the subscriber fails at once with ``ActionError/disabled`` (the
/// closure is not called). Otherwise the run starts, and the action publishes what happens:
///
/// ```swift
/// let search = Action<String, [String], Never> { query in
///   .just(["\(query) 1", "\(query) 2"])
/// }
/// let results = search.values.sink { print($0) }
/// let run = search.apply("swift").sink(receiveCompletion: { _ in }, receiveValue: { _ in })
/// // Prints: ["swift 1", "swift 2"]
/// ```
///
/// ## Semantics
/// - **One run at a time.** A subscription to any publisher returned by ``apply(_:)`` is a run.
///   While one is in flight, every other subscription is refused with ``ActionError/disabled``:
///   ``disabledErrors`` emits, ``errors`` stays silent, and the closure is not called.
/// - **State.** ``isExecuting`` is `true` from the moment a run passes the gate (before the
///   closure is called) until it completes or is cancelled. ``isEnabled`` is
///   `enabledIf && !isExecuting`. Both are deduplicated properties.
/// - **Events.** A run's values go to ``values``; its failure to ``errors`` (and to the
///   subscriber as ``ActionError/publisherFailure(_:)``); its successful end to ``completed``. A
///   cancelled run publishes neither.
/// - **Order.** The action sees every event before the applying subscriber does: at the end of a
///   run, `isExecuting` becomes `false`, then ``errors`` or ``completed`` emits, then the
///   subscriber receives the completion, so it (or a subscriber of `errors` or `completed`) may
///   apply again at once. A change caused from inside a subscriber of `isExecuting` or
///   `isEnabled` is delivered after the current delivery, as with ``MutableProperty``; reading
///   ``Property/value`` always gives the current state.
/// - **Threads.** `apply`, subscriptions and cancels may happen on any thread; the gate lets
///   exactly one run through however many threads subscribe at once. The closure runs on the
///   subscribing thread. No lock is held while user code runs.
/// - **Lifetime.** A publisher returned by `apply` and every run in flight keep the action
///   alive; otherwise the action is freed with its last user. When it is freed, ``values``,
///   ``errors``, ``disabledErrors`` and ``completed`` finish. ``isExecuting`` and ``isEnabled``
///   do not keep the action alive.
public final class Action<Input, Output, Failure: Error> {
  /// Whether a run is in flight. Deduplicated.
  public let isExecuting: Property<Bool>

  /// Whether a run would start now: `enabledIf && !isExecuting`. Deduplicated.
  public let isEnabled: Property<Bool>

  /// The values of every run, as the applying subscribers receive them.
  public let values: AnyPublisher<Output, Never>

  /// The failure of every run that failed.
  public let errors: AnyPublisher<Failure, Never>

  /// Emits each time a subscription is refused because the action was disabled or busy.
  public let disabledErrors: AnyPublisher<Void, Never>

  /// Emits each time a run finishes successfully.
  public let completed: AnyPublisher<Void, Never>

  let storage: ActionStorage
  let execute: (Input) -> AnyDeferredPublisher<Output, Failure>
  let valuesSubject: PassthroughSubject<Output, Never>
  /// Sends a run's value to `valuesSubject`. The inlinable initializers make it in the
  /// caller's module, where `Output` is known, so that the send runs specialized code: a run's
  /// own code is generic (it is reached through `AnyDeferredPublisher`), and a subject's send
  /// compiled for any `Output` looks its types up in the runtime's metadata cache at each value.
  let sendValue: (Output) -> Void
  /// Whether a run's completion is a failure, made where `Failure` is known for the same
  /// reason: testing a `Subscribers.Completion<Failure>` in a run's generic code looked its
  /// metadata up on every run.
  let isFailure: (Subscribers.Completion<Failure>) -> Bool
  let errorsSubject = PassthroughSubject<Failure, Never>()
  let disabledErrorsSubject = PassthroughSubject<Void, Never>()
  let completedSubject = PassthroughSubject<Void, Never>()
  /// The completion a run that finished forwards to its subscriber, made once per action: a
  /// run's code is unspecialized, and making it there looked up the metadata of
  /// `Subscribers.Completion<ActionError<Failure>>` and `ActionError<Failure>` on every run.
  let finishedRun = Subscribers.Completion<ActionError<Failure>>.finished
  /// The sources bound with `action <~ source`, which end with the action.
  let bindings = ActionBindings()
  /// Which initializer made the action: the overload-resolution tests check it.
  package let form: ActionForm

  /// Creates an action that runs the publisher `execute` makes for an input, one run at a time,
  /// while `enabledIf` is `true`.
  ///
  /// ```swift
  /// let isLoggedIn = MutableProperty(false)
  /// let like = Action<Int, Int, Never>(enabledIf: Property(isLoggedIn)) { postID in
  ///   .just(postID)
  /// }
  /// print(like.isEnabled.value)  // Prints: false
  /// isLoggedIn.value = true
  /// print(like.isEnabled.value)  // Prints: true
  /// ```
  ///
  /// - Parameters:
  ///   - enabledIf: Whether the action may start a run; always, by default. It is read at each
  ///     subscription, and followed for ``isEnabled``.
  ///   - execute: Makes the cold publisher of one run. Called once per run, at subscription,
  ///     after the gate has let the run through, on the subscribing thread.
  @inlinable
  public convenience init(
    enabledIf: Property<Bool> = Property(value: true),
    execute: @escaping (Input) -> AnyDeferredPublisher<Output, Failure>
  ) {
    self.init(enabledIf: enabledIf, specializedForm: .execute, execute: execute)
  }

  /// Every public initializer records its `form` and comes here, inlined into the caller's
  /// module: the values subject and its send are made where `Output` is known.
  @inlinable
  convenience init(
    enabledIf: Property<Bool>, specializedForm form: ActionForm,
    execute: @escaping (Input) -> AnyDeferredPublisher<Output, Failure>
  ) {
    let values = PassthroughSubject<Output, Never>()
    self.init(
      enabledIf: enabledIf, form: form, values: values, sendValue: { values.send($0) },
      isFailure: { completion in
        if case .failure = completion { return true }
        return false
      }, execute: execute)
  }

  /// The designated initializer.
  @usableFromInline
  init(
    enabledIf: Property<Bool>, form: ActionForm, values: PassthroughSubject<Output, Never>,
    sendValue: @escaping (Output) -> Void,
    isFailure: @escaping (Subscribers.Completion<Failure>) -> Bool,
    execute: @escaping (Input) -> AnyDeferredPublisher<Output, Failure>
  ) {
    self.form = form
    valuesSubject = values
    self.sendValue = sendValue
    self.isFailure = isFailure
    let storage = ActionStorage(enabledIf: enabledIf)
    self.storage = storage
    self.execute = execute
    isExecuting = Property(
      currentValue: { storage.isExecuting },
      publisher: storage.publishedIsExecuting.eraseToAnyPublisher())
    isEnabled = Property(
      currentValue: { storage.isEnabled },
      publisher: storage.publishedIsEnabled.eraseToAnyPublisher())
    self.values = values.eraseToAnyPublisher()
    errors = errorsSubject.eraseToAnyPublisher()
    disabledErrors = disabledErrorsSubject.eraseToAnyPublisher()
    completed = completedSubject.eraseToAnyPublisher()
  }

  deinit {
    bindings.endAll()
    valuesSubject.send(completion: .finished)
    errorsSubject.send(completion: .finished)
    disabledErrorsSubject.send(completion: .finished)
    completedSubject.send(completion: .finished)
  }

  /// Returns a cold publisher whose every subscription is a run of the action for `input`.
  ///
  /// Nothing happens until a subscriber arrives. Then the gate is checked: if the action is
  /// disabled or busy, the subscriber fails at once with ``ActionError/disabled``; otherwise
  /// the closure is called and the subscriber receives the run's values, and its failure as
  /// ``ActionError/publisherFailure(_:)``. Subscribing again after the run has ended starts a
  /// new run.
  ///
  /// ```swift
  /// let double = Action<Int, Int, Never> { number in .just(number * 2) }
  /// let cancellable = double.apply(21).sink(
  ///   receiveCompletion: { _ in }, receiveValue: { print($0) })
  /// // Prints: 42
  /// ```
  @inlinable
  public func apply(_ input: Input) -> AnyDeferredPublisher<Output, ActionError<Failure>> {
    AnyDeferredPublisher(ActionApplication(action: self, input: input))
  }

  /// Like ``apply(_:)``, but a refused run finishes at once, without values, instead of
  /// failing with ``ActionError/disabled`` (``disabledErrors`` still emits).
  ///
  /// ```swift
  /// let refresh = Action<Int, String, Never>(enabledIf: Property(value: false)) { page in
  ///   .just("page \(page)")
  /// }
  /// let cancellable = refresh.applyIfPossible(1).sink(
  ///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: finished
  /// ```
  public func applyIfPossible(_ input: Input) -> AnyDeferredPublisher<Output, Failure> {
    apply(input)
      .catch { error -> AnyDeferredPublisher<Output, Failure> in
        switch error {
        case .disabled: return .empty()
        case .publisherFailure(let failure): return .fail(failure)
        }
      }
      .eraseToAnyDeferredPublisher()
  }
}

extension Action where Input == Void {
  /// Returns a cold publisher whose every subscription is a run of the action: ``apply(_:)``
  /// for an action without input.
  ///
  /// ```swift
  /// var refreshes = 0
  /// let refresh = Action<Void, Int, Never> {
  ///   refreshes += 1
  ///   return .just(refreshes)
  /// }
  /// let cancellable = refresh.apply().sink(
  ///   receiveCompletion: { _ in }, receiveValue: { print($0) })
  /// // Prints: 1
  /// ```
  public func apply() -> AnyDeferredPublisher<Output, ActionError<Failure>> {
    apply(())
  }

  /// ``applyIfPossible(_:)`` for an action without input: a refused run finishes empty.
  public func applyIfPossible() -> AnyDeferredPublisher<Output, Failure> {
    applyIfPossible(())
  }
}

extension Action: @unchecked Sendable where Input: Sendable, Output: Sendable {
  // @unchecked Sendable: the gate lives in `storage` (lock-guarded), the subjects and
  // properties are thread-safe, and the rest is immutable; like Deferred's closure, `execute`
  // is called on whichever thread subscribes.
}

/// Which of ``Action``'s initializers made an action (they accept the same trailing closure;
/// the overload-resolution tests check which one a closure picks).
@usableFromInline
package enum ActionForm: Sendable {
  /// `init(enabledIf:execute:)` with a closure returning `AnyDeferredPublisher`.
  case execute
  /// `init(enabledIf:execute:)` with a closure returning `DeferredFuture`.
  case executeDeferredFuture
  /// `init(enabledIf:execute:)` with a closure returning any other publisher.
  case executePublisher
  /// `init(enabledIf:builder:)` with a closure returning `AnyDeferredPublisher`.
  case builder
  /// `init(enabledIf:builder:)` with a closure returning a future.
  case builderFuture
}
