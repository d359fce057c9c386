import CombineExCore

// More ways to give an action its work, beside `init(enabledIf:execute:)`. They all accept a
// trailing closure, so which one a closure picks is fixed by how they rank (pinned by
// ActionInitializerResolutionTests):
// - `execute:` returning `AnyDeferredPublisher` is the one favored form: `.just(x)`, `.fail(e)`
//   and `AnyDeferredPublisher { ... }` pick it.
// - Everything else is disfavored, and among disfavored forms the most specific type wins:
//   a closure returning a `DeferredFuture` picks the `DeferredFuture` form (Action+DeferredFuture),
//   one returning another future (`AnyDeferredFuture`) the future builder, and one returning
//   any other publisher (`AnyPublisher`, `Just`, a subject...) the publisher form.
// - `builder:` (the original CombineEx's label) is disfavored too, so it never competes with
//   `execute:` for a trailing closure; spelled out, it takes the same closures.

extension Action {
  /// Creates an action that runs the publisher `builder` makes for an input: the original
  /// CombineEx's spelling of `init(enabledIf:execute:)`.
  ///
  /// ```swift
  /// let isOnline = MutableProperty(true)
  /// let refresh = Action<Void, Int, Never>(enabledIf: Property(isOnline), builder: { .just(1) })
  /// ```
  @_disfavoredOverload
  @inlinable
  public convenience init(
    enabledIf: Property<Bool> = Property(value: true),
    builder: @escaping (Input) -> AnyDeferredPublisher<Output, Failure>
  ) {
    self.init(enabledIf: enabledIf, specializedForm: .builder, execute: builder)
  }

  /// Creates an action whose runs are the futures `builder` makes for an input (an
  /// `AnyDeferredFuture`, or any other future): one value, or a failure, per run.
  ///
  /// ```swift
  /// func fetchTitle(id: Int) -> AnyDeferredFuture<String, Never> { .just("Post \(id)") }
  /// let open = Action<Int, String, Never>(builder: { fetchTitle(id: $0) })
  /// ```
  ///
  /// Otherwise the same as `init(enabledIf:execute:)`.
  @_disfavoredOverload
  @inlinable
  public convenience init<F: DeferredFutureProtocol>(
    enabledIf: Property<Bool> = Property(value: true),
    builder: @escaping (Input) -> F
  ) where F.Output == Output, F.Failure == Failure {
    self.init(enabledIf: enabledIf, specializedForm: .builderFuture) { input in
      builder(input).eraseToAnyDeferredPublisher()
    }
  }

  /// Creates an action whose run subscribes to the publisher `execute` makes for an input: any
  /// publisher, such as the `AnyPublisher` a client returns.
  ///
  /// ```swift
  /// struct SearchClient {
  ///   func search(_ query: String) -> AnyPublisher<[String], Never> {
  ///     Just([query]).eraseToAnyPublisher()
  ///   }
  /// }
  /// let client = SearchClient()
  /// let search = Action<String, [String], Never> { query in client.search(query) }
  /// ```
  ///
  /// The closure is itself the factory: it is called once per run, at subscription, after the
  /// gate has let the run through, so each run subscribes to a publisher of its own even when
  /// the type does not say it is cold. Otherwise the same as ``init(enabledIf:execute:)``.
  @_disfavoredOverload
  @inlinable
  public convenience init<P: Publisher>(
    enabledIf: Property<Bool> = Property(value: true),
    execute: @escaping (Input) -> P
  ) where P.Output == Output, P.Failure == Failure {
    self.init(enabledIf: enabledIf, specializedForm: .executePublisher) { input in
      // `execute` is called at subscription already (ActionApplication), once per run: the
      // wrapper only gives its publisher the erased type.
      AnyDeferredPublisher(makePublisher: { execute(input) })
    }
  }
}
