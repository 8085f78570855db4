"""Interests texts and keywords for the holdout split's categories (bench/tasks.py HOLDOUT): small
fields that neither tune nor report has, written by hand on 2026-12-03 from what each field is
about, in the three voices of bench/interests.py, before the split was ever run."""

from __future__ import annotations

FIRST = {
    "cond-mat.soft": (
        "I study soft and active matter: colloids, polymers, liquid crystals and the collective "
        "motion of self-propelled particles. My work combines simulation and theory of glasses, "
        "jamming and gels with the mechanics of biological tissues and membranes."
    ),
    "q-bio.BM": (
        "I work in computational structural biology: predicting the structure of proteins and "
        "designing new proteins and binders with deep generative models. I am also interested "
        "in protein-ligand docking, molecular dynamics of biomolecules and drug discovery."
    ),
    "cond-mat.str-el": (
        "My research is on strongly correlated electrons: Hubbard models, quantum magnetism, "
        "frustrated magnets and spin liquids, and unconventional superconductivity. I use "
        "tensor networks, quantum Monte Carlo and dynamical mean-field theory, and follow "
        "experiments on moiré materials and heavy fermions."
    ),
    "physics.comp-ph": (
        "I develop numerical methods for simulating physical systems: solvers for partial "
        "differential equations, Monte Carlo sampling and particle simulations on GPUs. Lately "
        "I use machine-learned interatomic potentials and physics-informed neural networks to "
        "make these computations faster."
    ),
    "nucl-th": (
        "I work in theoretical nuclear physics: the structure of nuclei from chiral effective "
        "field theory and ab initio many-body methods, and the equation of state of dense "
        "matter in neutron stars. I also follow heavy-ion collisions, the quark-gluon plasma "
        "and nuclear reactions."
    ),
    "cs.HC": (
        "I do research in human-computer interaction: how people use, understand and trust "
        "interactive systems, studied with user studies, interviews and prototypes. Lately I "
        "look at how people work with AI assistants, at accessibility for blind and older "
        "users, and at visualization."
    ),
    "cs.SD": (
        "I work on audio and speech processing with deep learning: speech synthesis, voice "
        "conversion, and the generation and transcription of music. I am also interested in "
        "sound event detection, speech enhancement and audio-language models."
    ),
}

TERSE = {
    "cond-mat.soft": "active matter, colloids, polymers, liquid crystals, glasses, jamming",
    "q-bio.BM": "protein structure prediction; protein design; docking; binding affinity",
    "cond-mat.str-el": (
        "Hubbard model, spin liquids, quantum magnetism, Kondo, DMFT, tensor networks"
    ),
    "physics.comp-ph": "PDE solvers, Monte Carlo, GPU simulation, interatomic potentials",
    "nucl-th": "nuclear structure, chiral EFT, ab initio, nuclear EOS, heavy-ion collisions",
    "cs.HC": "user studies; human-AI interaction; accessibility; visualization; interaction design",
    "cs.SD": (
        "text-to-speech, voice conversion, music generation, speech enhancement, audio tagging"
    ),
}

LONG = {
    "cond-mat.soft": (
        "I am drawn to materials that are easy to deform and hard to predict. I read about "
        "colloidal suspensions and emulsions, polymer melts and networks, liquid crystals and "
        "foams, and about how such systems flow, yield and age. Active matter is a large part "
        "of it: swimming bacteria, self-propelled particles and the patterns they form when "
        "many move together. I also follow the glass transition and jamming, the physics of "
        "membranes, cells and tissues, and the simulations, from molecular dynamics to "
        "continuum models, that connect all of this to experiments."
    ),
    "q-bio.BM": (
        "Our lab studies the molecules of life through computation. We read about how proteins "
        "fold and move, from coarse-grained models to long molecular dynamics runs, and about "
        "the new generation of structure predictors and what they still get wrong. Design is "
        "the other half: generating sequences and backbones for enzymes, antibodies and "
        "binders, and scoring how strongly a small molecule or another protein binds. RNA "
        "structure, protein language models and the datasets and benchmarks behind them are "
        "welcome too."
    ),
    "cond-mat.str-el": (
        "I want to understand electrons that cannot be treated one at a time. My reading covers "
        "lattice models such as the Hubbard and t-J models and the numerical methods that "
        "attack them: density matrix renormalization, tensor networks, quantum Monte Carlo and "
        "dynamical mean-field theory. On the physical side I follow frustrated magnets and "
        "quantum spin liquids, Kondo lattices and heavy fermions, high-temperature and other "
        "unconventional superconductors, and the correlated states of twisted and moiré "
        "materials, together with the spectroscopy that probes them."
    ),
    "physics.comp-ph": (
        "I care about how physics gets computed. Much of what I read is about algorithms: "
        "finite-element, spectral and lattice Boltzmann solvers, particle methods, Monte Carlo "
        "sampling, and making all of them scale on GPUs and supercomputers. I follow the use of "
        "machine learning inside simulations, from learned interatomic potentials for molecular "
        "dynamics to neural surrogates and physics-informed networks for fluid flow, and papers "
        "on verification, uncertainty and the software tools that computational physicists "
        "share."
    ),
    "nucl-th": (
        "I try to explain atomic nuclei and nuclear matter from the forces between nucleons. "
        "I read about chiral effective field theory and ab initio methods such as coupled "
        "cluster and the shell model, about density functionals for heavy and exotic nuclei, "
        "and about fission, reactions and nucleosynthesis. Dense matter matters too: the "
        "equation of state that sets the size of neutron stars and what their mergers tell "
        "us. I also follow heavy-ion collisions, the quark-gluon plasma and hydrodynamic "
        "descriptions of it."
    ),
    "cs.HC": (
        "Our group studies people as much as software. We run user studies, interviews and "
        "field deployments to see how interfaces shape what people do, and we design and build "
        "prototypes to test ideas. Much of our current reading is about people working with AI: "
        "when they rely on a chatbot or a writing assistant, how explanations change trust, and "
        "how to design for collaboration rather than replacement. Accessibility, education, "
        "health applications, virtual and augmented reality and visualization of data are part "
        "of it too."
    ),
    "cs.SD": (
        "I work with sound. I read about speech synthesis and voice conversion, about "
        "separating and enhancing speech in noisy rooms, and about recognizing who speaks and "
        "what events happen in a recording. Music is half of my interest: generating it, "
        "transcribing it, tagging genre and mood, and separating instruments. Lately most of "
        "this runs through large neural codecs and audio-language models, so papers on audio "
        "tokenizers, self-supervised audio representations and how to evaluate generated audio "
        "are welcome."
    ),
}

KEYWORDS = {
    "cond-mat.soft": ("active matter", "colloidal suspensions", "liquid crystals"),
    "q-bio.BM": ("protein design", "protein structure", "molecular docking"),
    "cond-mat.str-el": ("spin liquid", "Hubbard model", "strongly correlated"),
    "physics.comp-ph": ("numerical simulation", "Monte Carlo", "lattice Boltzmann"),
    "nucl-th": ("nuclear matter", "chiral effective field theory", "heavy-ion collisions"),
    "cs.HC": ("user study", "human-AI interaction", "accessibility"),
    "cs.SD": ("speech synthesis", "music generation", "speech enhancement"),
}
