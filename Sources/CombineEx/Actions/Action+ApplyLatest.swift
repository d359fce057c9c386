import CombineExCore

extension Action {
  /// Binds `source` to the action, the latest value winning: each value `source` publishes
  /// applies the action to it, and a value that comes while the previous value's run is still
  /// in flight cancels that run and starts one for the new value. The runs need no
  /// cancellable.
  ///
  /// ```swift
  /// let query = PassthroughSubject<String, Never>()
  /// let server = PassthroughSubject<[String], Never>()  // answers when told
  /// let search = Action<String, [String], Never> { text in
  ///   AnyDeferredPublisher { server.first().map { $0 + [text] } }
  /// }
  /// let results = search.values.sink { print($0) }
  /// search.applyLatest(from: query)
  /// query.send("sw")
  /// query.send("swift")  // cancels the search for "sw"
  /// server.send(["1"])  // Prints: ["1", "swift"]
  /// ```
  ///
  /// It is `action <~ source` (``<~(_:_:)``) for inputs where only the latest matters (a
  /// search as the user types): `<~` refuses a value that comes during a run, so with a server
  /// slower than the user's pauses the results of an old query would stay on screen.
  ///
  /// ## Semantics
  /// - **The latest value wins.** A value starts a run at once, on the thread that delivered
  ///   it. If the binding's previous run is still in flight, the gate is handed from it to the
  ///   new run in one step: `isExecuting` stays `true` and `isEnabled` `false`, and neither
  ///   publishes anything for the hand-over (no flicker). The previous run is cancelled and
  ///   emits nothing more: none of its values not yet delivered to ``values``, nothing on
  ///   ``errors`` or ``completed``.
  /// - **Refusals.** A value that comes while `enabledIf` is `false`, or while a run that this
  ///   binding did not start is in flight (an ``apply(_:)``, another binding's run), is refused
  ///   as with `<~`: ``disabledErrors`` emits, the value is dropped, and the run in flight goes
  ///   on. A binding only ever cancels its own runs.
  /// - **Events.** A run's values go to ``values``, its failure to ``errors``, its successful
  ///   end to ``completed``, as for any run, one at a time and in order, also when runs end and
  ///   start on several threads at once.
  /// - **Lifetime.** The binding lasts until `source` completes (a failure ends it too) and
  ///   its last run has ended, or until the action is freed, whichever comes first. Neither the
  ///   binding nor its runs keep the action alive (unlike an applied run, which does): when the
  ///   action is freed, the subscription to `source` and the run in flight are cancelled, and
  ///   `isExecuting` becomes `false`. The action does not keep `source` alive beyond the
  ///   subscription.
  /// - **Demand.** The binding asks `source` for unlimited values, and each run for unlimited
  ///   values.
  ///
  /// The same as `source.map { action.apply($0).catch { _ in Empty() } }.switchToLatest()`
  /// with a stored cancellable, except that the hand-over is one step of the action's gate
  /// (`switchToLatest` cancels the old run, so `isExecuting` flickers to `false`, before it
  /// starts the new one), and that a run that an `apply` started is never cancelled.
  public func applyLatest<Source: Publisher>(from source: Source) where Source.Output == Input {
    source.subscribe(ActionLatestBinding<Input, Output, Failure, Source.Failure>(action: self))
  }
}
