// What Combine shows of a merge (flatMap, switchToLatest, merge) in a debugger, a playground or
// a `dump`: the operator's name, no children for the subscription and the upstream's
// subscriber, and for each input's subscriber the identifier of the subscription it belongs to
// (`parentSubscription`). Computed when asked for.

extension MergeStorage: NamedReflection {}

extension MergeUpstream: NamedReflection {
  /// The merge's own identifier, as in Combine, where the subscription is also the upstream's
  /// subscriber: the inputs' subscribers name it as their `parentSubscription`.
  @usableFromInline
  var combineIdentifier: CombineIdentifier { CombineIdentifier(storage) }
}

extension MergeInput: NamedReflection {
  @usableFromInline
  var customMirror: Mirror {
    Mirror(self, children: ["parentSubscription": CombineIdentifier(storage)])
  }
}
