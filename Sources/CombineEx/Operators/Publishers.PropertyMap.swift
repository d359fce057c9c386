import CombineExCore

extension Publisher {
  /// Turns a publisher of arrays of identifiable elements into a publisher of arrays of
  /// models, making each model once per element identity and feeding it the element's later
  /// versions through a ``Property``.
  ///
  /// ```swift
  /// struct Row: Identifiable, Equatable {
  ///   let id: Int
  ///   var title: String
  /// }
  /// final class RowModel {
  ///   let title: Property<String>
  ///   init(_ row: Property<Row>) { title = row.map(\.title) }
  /// }
  /// let rows = CurrentValueSubject<[Row], Never>([Row(id: 1, title: "Draft")])
  /// var models: [RowModel] = []
  /// let cancellable = rows.propertyMap { RowModel($0) }.sink { models = $0 }
  /// rows.send([Row(id: 1, title: "Final")])  // same ids: the model is updated in place
  /// print(models[0].title.value)
  /// // Prints: Final
  /// ```
  ///
  /// For each subscription:
  /// - `transform` runs once for each new identity, with a `Property` of that element, which
  ///   follows the element's later versions for as long as its id stays in the arrays (with
  ///   `removeDuplicates`, the default, a version equal to the previous one is not published
  ///   again). An id that leaves the array is forgotten: if it comes back, `transform` runs
  ///   again.
  /// - An array is published when the ids (in order) differ from the last published ones, and
  ///   for the first array: the models in the input's order. When only elements' contents
  ///   change, the models' properties update and nothing is published.
  /// - The properties are updated before the array is published.
  public func propertyMap<Element: Identifiable & Equatable, TransformOutput>(
    removeDuplicates: Bool = true,
    transform: @escaping (Property<Element>) -> TransformOutput
  ) -> Publishers.PropertyMap<Self, Element, TransformOutput> where Output == [Element] {
    Publishers.PropertyMap(upstream: self, removeDuplicates: removeDuplicates, transform: transform)
  }
}

extension Publishers {
  /// A publisher that maps arrays of identifiable elements to arrays of models made once per
  /// identity, each fed its element's versions through a ``Property``.
  ///
  /// See ``Publisher/propertyMap(removeDuplicates:transform:)``. Every subscription keeps its
  /// own models and properties; demand passes through (an array that would publish nothing
  /// gives its unit of demand back to the upstream).
  public struct PropertyMap<
    Upstream: Publisher, Element: Identifiable & Equatable, TransformOutput
  >:
    Publisher
  where Upstream.Output == [Element] {
    /// The kind of values this publisher publishes: the models, in the input's order.
    public typealias Output = [TransformOutput]

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher of arrays.
    public let upstream: Upstream

    /// Whether an element's property skips versions equal to the previous one.
    public let removeDuplicates: Bool

    /// Makes a model from an element's property, once per identity.
    public let transform: (Property<Element>) -> TransformOutput

    /// Creates a publisher that maps `upstream`'s arrays with `transform`.
    public init(
      upstream: Upstream, removeDuplicates: Bool,
      transform: @escaping (Property<Element>) -> TransformOutput
    ) {
      self.upstream = upstream
      self.removeDuplicates = removeDuplicates
      self.transform = transform
    }

    /// Attaches the subscriber, with models of its own.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let models = PropertyMapModels<Element, TransformOutput>(
        removeDuplicates: removeDuplicates, transform: transform)
      upstream.receive(
        subscriber: OperatorDriver(
          PropertyMapLogic<Element, TransformOutput, Failure>(models: models),
          downstream: subscriber))
    }
  }
}

/// `propertyMap`: publish the models when the ids changed, else skip (the unit of demand goes
/// back upstream). The core's operator driver enforces the rules (nothing after the end or a
/// cancel).
private struct PropertyMapLogic<Element: Identifiable & Equatable, Model, Failure: Error>:
  OperatorLogic
{
  typealias UpstreamFailure = Failure

  let models: PropertyMapModels<Element, Model>

  var name: String { "PropertyMap" }

  /// As Combine's `tryMap`, the closest of its operators (a transform on the driver): a cancel
  /// before the upstream's subscription is only noted (the subscription that arrives is handed
  /// on untouched), and a completion before it is ignored (see the core's `MisusePolicy`).
  var misusePolicy: MisusePolicy { .notesEarlyCancel }

  func receive(_ input: [Element], _: inout Void) -> OperatorStep<[Model], Failure> {
    if let output = models.update(with: input) { return .emit(output) }
    return .skip
  }
}

/// One subscription's models: a mutable property and a model per identity.
///
/// Only the upstream's values reach it, and those arrive one at a time, so it needs no lock.
private final class PropertyMapModels<Element: Identifiable & Equatable, Model> {
  private let removeDuplicates: Bool
  private let transform: (Property<Element>) -> Model
  private var entries: [Element.ID: (property: MutableProperty<Element>, model: Model)] = [:]
  /// The ids of the last array published; `nil` before the first.
  private var publishedIDs: [Element.ID]?

  init(removeDuplicates: Bool, transform: @escaping (Property<Element>) -> Model) {
    self.removeDuplicates = removeDuplicates
    self.transform = transform
  }

  /// Updates the properties and models for `elements`; returns the models to publish, or
  /// `nil` when the ids are those last published.
  func update(with elements: [Element]) -> [Model]? {
    var seen = Set<Element.ID>()
    for element in elements {
      seen.insert(element.id)
      if let entry = entries[element.id] {
        entry.property.value = element
      } else {
        let property = MutableProperty(element)
        let view = removeDuplicates ? property.removeDuplicates() : Property(property)
        entries[element.id] = (property, transform(view))
      }
    }
    for id in entries.keys where !seen.contains(id) {
      entries[id] = nil
    }
    let ids = elements.map(\.id)
    guard ids != publishedIDs else { return nil }
    publishedIDs = ids
    return elements.compactMap { entries[$0.id]?.model }
  }
}

// Each subscription subscribes the upstream once and keeps models of its own: cold when the
// upstream is.
extension Publishers.PropertyMap: ColdPublisher where Upstream: ColdPublisher {}
