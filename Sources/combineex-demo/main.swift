// `swift run combineex-demo`: a short guided tour of CombineEx. Each stop prints what a feature
// does and then runs it, so the output reads as a walkthrough.
import CombineEx

let tour = Tour()
tour.intro()
CoreStops.run(tour)
CombiningStops.run(tour)
PropertyStops.run(tour)
tour.outro()
